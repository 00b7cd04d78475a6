import type { Route } from "./+types/about";
import { loadData } from "~/features/pages/data.server";
import { AboutPage } from "~/features/pages/about-page";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => loadData("about");

export const meta: Route.MetaFunction = (args) => pageMeta(args, args.loaderData?.intro ?? { title: "關於我們" });

export default function AboutScreen({ loaderData }: Route.ComponentProps) {
  return <AboutPage {...loaderData} />;
}
