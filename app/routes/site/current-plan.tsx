import type { Route } from "./+types/current-plan";
import { loadCurrentPlan } from "~/features/pages/data.server";
import { CurrentPlanPage } from "~/features/content/current-plan-page";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => loadCurrentPlan();

export const meta: Route.MetaFunction = (args) => pageMeta(args, args.loaderData?.intro ?? { title: "目前方案" });

export default function CurrentPlanScreen({ loaderData }: Route.ComponentProps) {
  return <CurrentPlanPage {...loaderData} />;
}
