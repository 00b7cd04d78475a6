import { usePublicEnv } from "~/config/use-public-env";
import { mailtoHref } from "~/lib/mailto";
import { PageIntro } from "~/features/pages/page-intro";
import { SelfServiceDeletion } from "./self-service-deletion";
import type { AccountDeletionContent } from "~content/types";

/** What deleting an account removes and keeps, how long it takes, and how to ask for it or do it here. */
export function AccountDeletionPage({ intro, sections, byEmail, selfService }: AccountDeletionContent) {
  const env = usePublicEnv();
  const mailto = mailtoHref(env.supportEmail, byEmail.subject);
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
      <SelfServiceDeletion {...selfService} />
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
