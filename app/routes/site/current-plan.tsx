import type { Route } from "./+types/current-plan";
import { loadCurrentPlan } from "~/features/pages/data.server";
import { CurrentPlanPage } from "~/features/account/current-plan-page";
import { getViewer } from "~/features/auth/index.server";
import { pageMeta } from "~/features/seo/page-meta";

// Whether the visitor is signed in is known here, so the first HTML already shows the plan or the sign-in card.
export const loader = async ({ request }: Route.LoaderArgs) => ({
  ...loadCurrentPlan(),
  signedInOnServer: (await getViewer(request)) !== null,
});

// One visitor's answer: no shared cache keeps it.
export const headers = () => ({ "Cache-Control": "private, no-cache" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, args.loaderData?.intro ?? { title: "目前方案" });

export default function CurrentPlanScreen({ loaderData }: Route.ComponentProps) {
  return <CurrentPlanPage {...loaderData} />;
}
