import type { Route } from "./+types/privacy";
import { getLegalDocument } from "~/features/articles/documents.server";
import { LegalPage } from "~/features/articles/legal-page";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => getLegalDocument("privacy");

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, args.loaderData ? { title: args.loaderData.title, description: args.loaderData.summary } : { title: "隱私權政策" });

export default function PrivacyScreen({ loaderData }: Route.ComponentProps) {
  return <LegalPage {...loaderData} />;
}
