import type { Route } from "./+types/pricing";
import { loadData } from "~/features/pages/data.server";
import { PricingPage } from "~/features/pages/pricing-page";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => loadData("pricing");

export const meta: Route.MetaFunction = (args) => pageMeta(args, args.loaderData?.intro ?? { title: "免費方案" });

export default function PricingScreen({ loaderData }: Route.ComponentProps) {
  return <PricingPage {...loaderData} />;
}
