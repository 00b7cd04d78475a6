import type { Route } from "./+types/terms";
import { getLegalDocument } from "~/features/articles/documents.server";
import { LegalPage } from "~/features/articles/legal-page";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => getLegalDocument("terms");

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, args.loaderData ? { title: args.loaderData.title, description: args.loaderData.summary } : { title: "服務條款" });

export default function TermsScreen({ loaderData }: Route.ComponentProps) {
  return <LegalPage {...loaderData} />;
}
