import { Link } from "react-router";
import { PageIntro } from "~/features/pages/page-intro";

export interface ForbiddenTexts {
  title: string;
  lead: string;
  status: string;
  meanwhile: string;
  action: { label: string; href: string };
}

/** What a signed-in user who is not an editor sees on the editor screens (answered with 403). */
export function ForbiddenView({ texts }: { texts: ForbiddenTexts }) {
  return (
    <main className="page">
      <PageIntro title={texts.title} lead={texts.lead} />
      <section className="prose" aria-label="目前狀態">
        <p>{texts.status}</p>
        <p>{texts.meanwhile}</p>
        <p>
          <Link className="button button--primary" to={texts.action.href}>
            {texts.action.label}
          </Link>
        </p>
      </section>
    </main>
  );
}
