import type { Route } from "./+types/tutorial";
import { loadData } from "~/features/pages/data.server";
import { TutorialPage } from "~/features/pages/tutorial-page";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => loadData("tutorial");

export const meta: Route.MetaFunction = (args) => pageMeta(args, args.loaderData?.intro ?? { title: "使用教學" });

export default function TutorialScreen({ loaderData }: Route.ComponentProps) {
  return <TutorialPage {...loaderData} />;
}
