import { data } from "react-router";
import type { Route } from "./+types/wishing-well";
import { loadData } from "~/features/pages/data.server";
import { UpcomingPage } from "~/features/pages/upcoming-page";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => data(loadData("upcoming").wishingWell, { status: 200 });

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, args.loaderData?.intro ?? { title: "許願池" }),
];

export default function WishingWellScreen({ loaderData }: Route.ComponentProps) {
  return <UpcomingPage {...loaderData} />;
}
