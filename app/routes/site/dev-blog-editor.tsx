import { data } from "react-router";
import type { Route } from "./+types/dev-blog-editor";
import { loadData } from "~/features/pages/data.server";
import { UpcomingPage } from "~/features/pages/upcoming-page";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => data(loadData("upcoming").devBlogEditor, { status: 403 });

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, args.loaderData?.intro ?? { title: "編輯開發日誌" }),
  { name: "robots", content: "noindex" },
];

export default function DevBlogEditorScreen({ loaderData }: Route.ComponentProps) {
  return <UpcomingPage {...loaderData} />;
}
