import type { Route } from "./+types/account-passkeys";
import { PasskeysPage } from "~/features/account/passkeys-page";
import { passkeySettings, passkeySettingsAction } from "~/features/account/second-factor-settings.server";
import { withSessionRefresh } from "~/features/auth";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = ({ request }: Route.LoaderArgs) => passkeySettings(request);
export const action = ({ request }: Route.ActionArgs) => passkeySettingsAction(request);
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => withSessionRefresh(serverAction);
export const headers = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "密碼金鑰", description: "新增、改名或移除登入用的密碼金鑰。" });

export default function AccountPasskeys({ loaderData }: Route.ComponentProps) {
  return <PasskeysPage {...loaderData} />;
}
