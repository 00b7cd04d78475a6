import { Link } from "react-router";

/** The not-found screen's content, for the unknown-path route and for screens that exist only in development. */
export function NotFoundMain() {
  return (
    <main className="page page--centered">
      <h1>找不到頁面</h1>
      <p>你要找的頁面不存在，可能已經移除或網址有誤。</p>
      <p>
        <Link className="button button--primary" to="/">
          回到首頁
        </Link>
      </p>
    </main>
  );
}
