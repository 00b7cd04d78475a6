import { ClosingCall } from "./closing-call";
import { PageIntro } from "./page-intro";
import type { FeaturesContent } from "~content/types";

export function FeaturesPage({ intro, items, closing }: FeaturesContent) {
  return (
    <main className="page">
      <PageIntro title={intro.title} lead={intro.lead} />
      <ul className="feature-grid">
        {items.map((feature) => (
          <li key={feature.id} id={feature.id} className="card">
            <h2>{feature.title}</h2>
            <p>{feature.text}</p>
            <ul className="check-list">
              {feature.details.map((detail) => (
                <li key={detail}>{detail}</li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <ClosingCall call={closing} />
    </main>
  );
}
