import type { Route } from "./+types/faq";
import { loadData } from "~/features/content/data.server";
import { FaqPage } from "~/features/content/faq-page";
import { faqStructuredData } from "~/features/content/structured-data";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => loadData("faq");

export const meta: Route.MetaFunction = (args) =>
  args.loaderData
    ? [...pageMeta(args, args.loaderData.intro), { "script:ld+json": faqStructuredData(args.loaderData.groups) }]
    : pageMeta(args, { title: "常見問題" });

export default function FaqScreen({ loaderData }: Route.ComponentProps) {
  return <FaqPage {...loaderData} />;
}
