import { ContactCall } from "./contact-call";
import { PageIntro } from "./page-intro";
import type { AboutContent } from "~content/types";

export function AboutPage({ intro, sections, values, contact }: AboutContent) {
  return (
    <main className="page page--narrow">
      <PageIntro title={intro.title} lead={intro.lead} />
      {sections.map((section) => (
        <section key={section.title} className="page-section">
          <h2>{section.title}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
      <section className="page-section" aria-labelledby="about-values">
        <h2 id="about-values">{values.title}</h2>
        <ul className="feature-grid feature-grid--two">
          {values.items.map((item) => (
            <li key={item.title} className="card">
              <h3>{item.title}</h3>
              <p>{item.text}</p>
            </li>
          ))}
        </ul>
      </section>
      <ContactCall call={contact} />
    </main>
  );
}
