import { Link, useActionData } from "react-router";
import { usePublicEnv } from "~/config/use-public-env";
import { ResultNotice } from "~/components/result-notice";
import type { FormResult } from "~/lib/form-result";
import { mailtoHref } from "~/lib/mailto";
import { PageIntro } from "~/features/pages/page-intro";
import type { AccountDeletionContent } from "~content/types";
import { SelfServiceDeletion, type DeletionAccount } from "./self-service-deletion";

/**
 * What deleting an account removes and keeps, how long it takes, and how to ask for it or do it here. Once the
 * account is deleted the page says only that, at its top (not the by-email way, which would read as "now write").
 */
export function AccountDeletionPage({
  intro,
  sections,
  byEmail,
  selfService,
  fromApp,
  fromAppOutcome,
  account,
}: AccountDeletionContent & { account: DeletionAccount | null; fromAppOutcome: keyof AccountDeletionContent["fromApp"] | null }) {
  const env = usePublicEnv();
  const answered = useActionData() as FormResult | undefined;
  const deleted = Boolean(answered?.done);
  const went = answered?.values?.went ? answered.values.went.split("\n") : [];
  const mailto = mailtoHref(env.supportEmail, byEmail.subject);
  if (deleted) {
    return (
      <main className="page page--narrow">
        <PageIntro title={intro.title} />
        <ResultNotice tone="done" className="notice notice--done">
          {selfService.done}
        </ResultNotice>
        {went.length > 0 ? (
          <>
            <p>一起刪除的還有：</p>
            <ul>
              {went.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </>
        ) : null}
        <p>
          <Link to="/">回到首頁</Link>
        </p>
      </main>
    );
  }
  return (
    <main className="page page--narrow">
      <PageIntro title={intro.title} lead={intro.lead} />
      {fromAppOutcome && (
        <p className={fromAppOutcome === "confirmed" ? "notice" : "notice notice--error"} role="status">
          {fromApp[fromAppOutcome]}
        </p>
      )}
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
      <SelfServiceDeletion content={selfService} account={account} />
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
