import { Form, Link, useSearchParams } from "react-router";
import { usePublicEnv } from "~/config/use-public-env";
import { safeRedirect } from "~/lib/redirect-rule";
import "./auth-screens.css";

/** The card every sign-in screen sits in: a way home, a heading, an optional lead sentence. */
export function AuthScreen({ title, lead, children }: { title: string; lead?: React.ReactNode; children: React.ReactNode }) {
  const env = usePublicEnv();
  return (
    <main className="auth-screen">
      <div className="auth-card">
        <Link to="/" className="auth-card__home">
          {env.productName}
        </Link>
        <h1>{title}</h1>
        {lead ? <p className="auth-card__lead">{lead}</p> : null}
        {children}
      </div>
    </main>
  );
}

/** Where to go once signed in: the screen's `redirectTo` parameter, as far as the redirect rule allows it. */
export function useRedirectTo(): string {
  const [params] = useSearchParams();
  return safeRedirect(params.get("redirectTo"), usePublicEnv().siteUrl);
}

/** A screen whose one way on is a link (continue, sign in, ask for a new email). */
export function NextStep({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <div className="auth-actions">
      <Link className="button button--primary" to={to}>
        {children}
      </Link>
    </div>
  );
}

/**
 * What a sign-in screen shows an account that is already signed in: continue, or sign out. Signing out posts
 * `intent=logout` to the login route's action (`logoutAction`; the screen's own route when left out).
 */
export function SignedInScreen({ title, lead, redirectTo, logoutAction }: { title: string; lead: string; redirectTo: string; logoutAction?: string }) {
  return (
    <AuthScreen title={title} lead={lead}>
      <Form method="post" action={logoutAction} className="auth-actions">
        <Link className="button button--primary" to={redirectTo}>
          繼續
        </Link>
        <button type="submit" name="intent" value="logout" className="button">
          登出
        </button>
      </Form>
    </AuthScreen>
  );
}
