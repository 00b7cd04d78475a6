import { Link } from "react-router";

/** The message of a content address that does not exist (the loader answers 404). */
export function ContentNotFound({ title, backTo, backLabel }: { title: string; backTo: string; backLabel: string }) {
  return (
    <main className="page page--centered">
      <h1>{title}</h1>
      <p>這個網址沒有對應的內容，可能已經移除或網址有誤。</p>
      <p>
        <Link className="button button--primary" to={backTo}>
          回到{backLabel}
        </Link>
      </p>
    </main>
  );
}
