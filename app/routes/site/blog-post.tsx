import type { Route } from "./+types/blog-post";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "家長學堂文章", description: "家長學堂文章" });

export default function BlogPostScreen() {
  return (
    <main className="page">
      <h1>家長學堂文章</h1>
    </main>
  );
}
