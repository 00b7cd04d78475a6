import { Link } from "react-router";
import { usePublicEnv } from "~/config/use-public-env";
import { PageIntro } from "./page-intro";
import type { AccountDeletionContent } from "./types";

/** What deleting an account removes and keeps, how long it takes, and how to ask for it. */
export function AccountDeletionPage({ intro, sections, byEmail, selfService }: AccountDeletionContent) {
  const env = usePublicEnv();
  const mailto = `mailto:${env.supportEmail}?subject=${encodeURIComponent(byEmail.subject)}`;
  return (
    <main className="page page--narrow">
      <PageIntro title={intro.title} lead={intro.lead} />
      {sections.map((section) => (
        <section key={section.title} className="page-section">
          <h2>{section.title}</h2>
          <ul>
            {section.items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </section>
      ))}
      <section className="page-section" aria-labelledby="deletion-self-service">
        <h2 id="deletion-self-service">{selfService.title}</h2>
        <p>{selfService.text}</p>
        <p>
          <Link className="button button--primary" to="/login?redirectTo=/account-deletion">
            登入
          </Link>
        </p>
      </section>
      <section className="page-section" aria-labelledby="deletion-by-email">
        <h2 id="deletion-by-email">{byEmail.title}</h2>
        <p>{byEmail.text}</p>
        <p>
          <a href={mailto}>{env.supportEmail}</a>（主旨：{byEmail.subject}）
        </p>
      </section>
    </main>
  );
}
