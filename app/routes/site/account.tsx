import type { Route } from "./+types/account";
import { AccountCenterPage } from "~/features/account/account-center-page";
import { accountCenter, accountCenterAction } from "~/features/account/account-center.server";
import { withSessionRefresh } from "~/features/auth";
import { pageMeta } from "~/features/seo/page-meta";

// Server-rendered per visitor (never prerendered): one account's settings.
export const loader = ({ request }: Route.LoaderArgs) => accountCenter(request);
export const action = ({ request }: Route.ActionArgs) => accountCenterAction(request);
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => withSessionRefresh(serverAction);

export const headers = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "帳號設定", description: "管理個人資料、電子郵件、登入方式，下載你的資料。" });

export default function AccountScreen({ loaderData }: Route.ComponentProps) {
  return <AccountCenterPage {...loaderData} />;
}
