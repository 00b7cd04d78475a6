import { Link } from "react-router";
import { authHref } from "~/features/sign-in/auth-paths";

/** The card an account screen shows to someone not signed in: sign in or sign up, then come back to `returnTo`. */
export function SignInPrompt({ id, title, text, returnTo }: { id: string; title: string; text: string; returnTo: string }) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <p>{text}</p>
      <p className="start-links">
        <Link className="button button--primary" to={authHref("/login", returnTo)}>
          登入
        </Link>
        <Link className="button" to={authHref("/signup", returnTo)}>
          免費註冊
        </Link>
      </p>
    </section>
  );
}
