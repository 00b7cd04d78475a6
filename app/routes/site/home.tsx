import type { Route } from "./+types/home";
import { loadHome } from "~/features/pages/data.server";
import { HomePage } from "~/features/pages/home-page";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => loadHome();

export const meta: Route.MetaFunction = (args) => pageMeta(args, args.loaderData?.intro ?? { title: "首頁" });

export default function HomeScreen({ loaderData }: Route.ComponentProps) {
  return <HomePage {...loaderData} />;
}
