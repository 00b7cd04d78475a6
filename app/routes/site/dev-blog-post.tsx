import { data } from "react-router";
import type { Route } from "./+types/dev-blog-post";
import { loadData } from "~/features/pages/data.server";
import { UpcomingPage } from "~/features/pages/upcoming-page";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => data(loadData("upcoming").devBlogPost, { status: 404 });

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, args.loaderData?.intro ?? { title: "找不到這篇開發日誌" }),
  { name: "robots", content: "noindex" },
];

export default function DevBlogPostScreen({ loaderData }: Route.ComponentProps) {
  return <UpcomingPage {...loaderData} />;
}
