import type { Route } from "./+types/current-plan";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "目前方案", description: "查看您目前使用的方案" });

export default function CurrentPlanScreen() {
  return (
    <main className="page">
      <h1>目前方案</h1>
    </main>
  );
}
