import type { Route } from "./+types/task-scheduler";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "免費任務表", description: "免費製作孩子的每週任務表" });

export default function TaskSchedulerScreen() {
  return (
    <main className="page">
      <h1>免費任務表</h1>
    </main>
  );
}
