import type { Route } from "./+types/faq";
import { loadData } from "~/features/pages/data.server";
import { FaqPage } from "~/features/pages/faq-page";
import { faqStructuredData } from "~/features/pages/faq-structured-data";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => loadData("faq");

export const meta: Route.MetaFunction = (args) =>
  args.loaderData
    ? [...pageMeta(args, args.loaderData.intro), { "script:ld+json": faqStructuredData(args.loaderData.groups) }]
    : pageMeta(args, { title: "常見問題" });

export default function FaqScreen({ loaderData }: Route.ComponentProps) {
  return <FaqPage {...loaderData} />;
}
