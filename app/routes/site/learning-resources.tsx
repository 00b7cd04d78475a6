import type { Route } from "./+types/learning-resources";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "學習資源", description: "習慣養成、責任感、家務分工與螢幕時間的學習資源" });

export default function LearningResourcesScreen() {
  return (
    <main className="page">
      <h1>學習資源</h1>
    </main>
  );
}
