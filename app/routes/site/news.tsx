import type { Route } from "./+types/news";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "最新消息", description: "任務小勇士的最新消息" });

export default function NewsScreen() {
  return (
    <main className="page">
      <h1>最新消息</h1>
    </main>
  );
}
