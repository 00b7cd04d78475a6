import type { Route } from "./+types/account-data";
import { AccountDataPage } from "~/features/account/account-data-page";
import { accountDataOf } from "~/features/account/account-center.server";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = async ({ request }: Route.LoaderArgs) => ({ copy: await accountDataOf(request) });

export const headers = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "我的資料", description: "查看並下載你在這個網站的資料。" });

export default function AccountDataScreen({ loaderData }: Route.ComponentProps) {
  return <AccountDataPage {...loaderData} />;
}
