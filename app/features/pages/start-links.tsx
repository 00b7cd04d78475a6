import { Link } from "react-router";
import { usePublicEnv } from "~/config/use-public-env";

/** The two calls to action: start in the app (new tab) and sign up for free; without an app, sign-up alone. */
export function StartLinks() {
  const env = usePublicEnv();
  if (!env.appUrl) {
    return (
      <p className="start-links">
        <Link className="button button--primary" to="/signup">
          立即開始
        </Link>
      </p>
    );
  }
  return (
    <p className="start-links">
      <a className="button button--primary" href={env.appUrl} target="_blank" rel="noopener">
        立即開始
      </a>
      <Link className="button" to="/signup">
        免費註冊
      </Link>
    </p>
  );
}
