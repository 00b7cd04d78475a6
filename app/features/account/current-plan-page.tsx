import { Link } from "react-router";
import { usePublicEnv } from "~/config/use-public-env";
import { authHref, guestUpgradeLabel } from "~/features/sign-in/auth-paths";
import { useAuth } from "~/features/auth";
import { PageIntro } from "~/features/pages/page-intro";
import { PlanCard } from "~/features/pages/plan-card";
import type { CurrentPlanContent, Plan } from "~content/types";
import { SignInPrompt } from "./sign-in-prompt";

/**
 * The signed-in user's plan with its limits and the way into the app; a visitor is asked to sign in. The server's
 * answer shows until the browser knows the session (no loading text, nothing moves), then the browser's own.
 */
export function CurrentPlanPage({
  intro,
  limits,
  signedIn,
  visitor,
  guest,
  plan,
  signedInOnServer,
}: CurrentPlanContent & { plan: Plan; signedInOnServer: boolean }) {
  const { currentUser, loading } = useAuth();
  const env = usePublicEnv();
  return (
    <main className="page page--narrow">
      <PageIntro title={intro.title} lead={intro.lead} />
      {(loading ? signedInOnServer : currentUser) ? (
        <>
          <PlanCard plan={plan} />
          <section className="page-section" aria-labelledby="plan-limits">
            <h2 id="plan-limits">使用限制</h2>
            <ul>
              {limits.map((limit) => (
                <li key={limit}>{limit}</li>
              ))}
            </ul>
          </section>
          {currentUser?.isAnonymous ? (
            <section className="page-section" aria-labelledby="plan-upgrade">
              <h2 id="plan-upgrade">{guest.title}</h2>
              <p>{guest.text}</p>
              <Link className="button button--primary" to={authHref("/signup", "/current-plan")}>
                {guestUpgradeLabel}
              </Link>
            </section>
          ) : null}
          <section className="page-section" aria-labelledby="plan-start">
            <h2 id="plan-start">{signedIn.title}</h2>
            <p>{signedIn.text}</p>
            {env.appUrl ? (
              <a className="button button--primary" href={env.appUrl} target="_blank" rel="noopener">
                進入應用程式
              </a>
            ) : null}
          </section>
        </>
      ) : (
        <SignInPrompt id="plan-sign-in" title={visitor.title} text={visitor.text} returnTo="/current-plan" />
      )}
    </main>
  );
}
