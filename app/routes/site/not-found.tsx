import { data, Link } from "react-router";
import type { Route } from "./+types/not-found";
import { pageMeta } from "~/features/seo/page-meta";

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, { title: "找不到頁面", description: "您要找的頁面不存在或已移除。" }),
  { name: "robots", content: "noindex" },
];

export default function NotFoundScreen() {
  return (
    <main className="page page--centered">
      <h1>找不到頁面</h1>
      <p>您要找的頁面不存在，可能已經移除或網址有誤。</p>
      <p>
        <Link className="button button--primary" to="/">
          回到首頁
        </Link>
      </p>
    </main>
  );
}
