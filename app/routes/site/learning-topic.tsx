import type { Route } from "./+types/learning-topic";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "學習資源主題", description: "學習資源主題" });

export default function LearningTopicScreen() {
  return (
    <main className="page">
      <h1>學習資源主題</h1>
    </main>
  );
}
