import type { Route } from "./+types/dev-blog-post";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "開發日誌文章", description: "開發日誌文章" });

export default function DevBlogPostScreen() {
  return (
    <main className="page">
      <h1>開發日誌文章</h1>
    </main>
  );
}
