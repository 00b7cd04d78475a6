import type { Route } from "./+types/blog";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "家長學堂", description: "給家長的教養文章" });

export default function BlogScreen() {
  return (
    <main className="page">
      <h1>家長學堂</h1>
    </main>
  );
}
