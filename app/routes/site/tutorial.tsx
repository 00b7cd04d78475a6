import type { Route } from "./+types/tutorial";
import { loadData } from "~/features/content/data.server";
import { TutorialPage } from "~/features/content/tutorial-page";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => loadData("tutorial");

export const meta: Route.MetaFunction = (args) => pageMeta(args, args.loaderData?.intro ?? { title: "使用教學" });

export default function TutorialScreen({ loaderData }: Route.ComponentProps) {
  return <TutorialPage {...loaderData} />;
}
