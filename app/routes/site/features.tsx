import type { Route } from "./+types/features";
import { loadData } from "~/features/pages/data.server";
import { FeaturesPage } from "~/features/pages/features-page";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => loadData("features");

export const meta: Route.MetaFunction = (args) => pageMeta(args, args.loaderData?.intro ?? { title: "功能介紹" });

export default function FeaturesScreen({ loaderData }: Route.ComponentProps) {
  return <FeaturesPage {...loaderData} />;
}
