import type { Route } from "./+types/dev-blog-editor";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "編輯開發日誌", description: "撰寫或編輯開發日誌" });

export default function DevBlogEditorScreen() {
  return (
    <main className="page">
      <h1>編輯開發日誌</h1>
    </main>
  );
}
