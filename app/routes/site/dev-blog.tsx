import { data } from "react-router";
import type { Route } from "./+types/dev-blog";
import { loadData } from "~/features/pages/data.server";
import { UpcomingPage } from "~/features/pages/upcoming-page";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => data(loadData("upcoming").devBlog, { status: 200 });

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, args.loaderData?.intro ?? { title: "開發日誌" }),
];

export default function DevBlogScreen({ loaderData }: Route.ComponentProps) {
  return <UpcomingPage {...loaderData} />;
}
