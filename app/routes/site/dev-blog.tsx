import type { Route } from "./+types/dev-blog";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "開發日誌", description: "任務小勇士的開發日誌" });

export default function DevBlogScreen() {
  return (
    <main className="page">
      <h1>開發日誌</h1>
    </main>
  );
}
