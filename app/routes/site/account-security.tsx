import type { Route } from "./+types/account-security";
import { AccountSecurityPage } from "~/features/account/account-security-page";
import { accountSecurity, accountSecurityAction } from "~/features/account/account-actions.server";
import { withSessionRefresh } from "~/features/auth";
import { loadChildDevices } from "~/features/family/family-actions.server";
import { ChildDevices, familyScreenPath } from "~/features/family/family-page";
import { pageMeta } from "~/features/seo/page-meta";

// Server-rendered per visitor (never prerendered): the forms and the device list show only to the signed-in account.
export const loader = async ({ request }: Route.LoaderArgs) => ({ ...(await accountSecurity(request)), childDevices: await loadChildDevices(request) });
export const action = ({ request }: Route.ActionArgs) => accountSecurityAction(request);
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => withSessionRefresh(serverAction);

// The list of devices is one person's: no shared cache keeps it, and the back button asks the server again.
export const headers = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "帳號安全", description: "更改密碼，查看並登出登入中的裝置。" });

export default function AccountSecurityScreen({ loaderData }: Route.ComponentProps) {
  const { childDevices, ...security } = loaderData;
  return <AccountSecurityPage {...security}>{childDevices.length ? <ChildDevices devices={childDevices} action={familyScreenPath} /> : null}</AccountSecurityPage>;
}
