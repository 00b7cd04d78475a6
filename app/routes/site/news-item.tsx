import type { Route } from "./+types/news-item";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "最新消息", description: "最新消息內容" });

export default function NewsItemScreen() {
  return (
    <main className="page">
      <h1>最新消息</h1>
    </main>
  );
}
