import type { Route } from "./+types/task-scheduler";
import { usePublicEnv } from "~/config/use-public-env";
import { TaskScheduler } from "~/features/scheduler/task-scheduler";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "免費任務表",
    description: "免註冊的孩子每週任務表：依年齡挑選任務、每天打勾集星星，還能印成一張 A4 貼在家裡。資料只存在你的裝置上。",
  });

export default function TaskSchedulerScreen() {
  const { appUrl } = usePublicEnv();
  return <TaskScheduler appUrl={appUrl} />;
}
