import { ContactCall } from "./contact-call";
import { FaqItem } from "./faq-item";
import { PageIntro } from "./page-intro";
import type { FaqContent } from "~content/types";

export function FaqPage({ intro, groups, contact }: FaqContent) {
  return (
    <main className="page page--narrow">
      <PageIntro title={intro.title} lead={intro.lead} />
      <nav className="faq-groups" aria-label="問題分類">
        <ul>
          {groups.map((group) => (
            <li key={group.id}>
              <a href={`#${group.id}`}>{group.title}</a>
            </li>
          ))}
        </ul>
      </nav>
      {groups.map((group) => (
        <section key={group.id} id={group.id} className="page-section" aria-labelledby={`${group.id}-title`}>
          <h2 id={`${group.id}-title`}>{group.title}</h2>
          <div className="faq-list">
            {group.questions.map((item) => (
              <FaqItem key={item.id} item={item} />
            ))}
          </div>
        </section>
      ))}
      <ContactCall call={contact} />
    </main>
  );
}
