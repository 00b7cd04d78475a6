import type { Route } from "./+types/ironman2025";
import { loadData } from "~/features/pages/data.server";
import { IronmanPage } from "~/features/pages/ironman-page";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => loadData("ironman2025");

export const meta: Route.MetaFunction = (args) => pageMeta(args, args.loaderData?.intro ?? { title: "技術文章" });

export default function Ironman2025Screen({ loaderData }: Route.ComponentProps) {
  return <IronmanPage {...loaderData} />;
}
