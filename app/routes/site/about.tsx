import type { Route } from "./+types/about";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "關於我們", description: "關於任務小勇士" });

export default function AboutScreen() {
  return (
    <main className="page">
      <h1>關於我們</h1>
    </main>
  );
}
