import type { Route } from "./+types/account-deletion";
import { loadData } from "~/features/pages/data.server";
import { AccountDeletionPage } from "~/features/content/account-deletion-page";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = () => loadData("accountDeletion");

export const meta: Route.MetaFunction = (args) => pageMeta(args, args.loaderData?.intro ?? { title: "刪除帳號" });

export default function AccountDeletionScreen({ loaderData }: Route.ComponentProps) {
  return <AccountDeletionPage {...loaderData} />;
}
