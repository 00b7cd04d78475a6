import { PageIntro } from "./page-intro";
import { PlanCard } from "./plan-card";
import { StartLinks } from "./start-links";
import type { PricingContent } from "~content/types";

export function PricingPage({ intro, plans, notes }: PricingContent) {
  return (
    <main className="page">
      <PageIntro title={intro.title} lead={intro.lead}>
        <StartLinks />
      </PageIntro>
      <div className="plan-grid">
        {plans.map((plan) => (
          <PlanCard key={plan.name} plan={plan} />
        ))}
      </div>
      <section className="page-section" aria-labelledby="pricing-notes">
        <h2 id="pricing-notes">方案說明</h2>
        <dl className="notes">
          {notes.map((note) => (
            <div key={note.title}>
              <dt>{note.title}</dt>
              <dd>{note.text}</dd>
            </div>
          ))}
        </dl>
      </section>
    </main>
  );
}
