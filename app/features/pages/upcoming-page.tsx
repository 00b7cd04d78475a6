import { Link } from "react-router";
import type { UpcomingScreen } from "~content/types";
import { PageIntro } from "./page-intro";

/** A screen whose feature is not open yet: what it will be, where it stands, and what to do meanwhile. */
export function UpcomingPage({ intro, status, meanwhile, action }: UpcomingScreen) {
  const internal = action.href.startsWith("/");
  return (
    <main className="page">
      <PageIntro title={intro.title} lead={intro.lead} />
      <section className="prose" aria-label="目前狀態">
        <p>{status}</p>
        <p>{meanwhile}</p>
        <p>
          {internal ? (
            <Link className="button button--primary" to={action.href}>
              {action.label}
            </Link>
          ) : (
            <a className="button button--primary" href={action.href}>
              {action.label}
            </a>
          )}
        </p>
      </section>
    </main>
  );
}
