import type { Route } from "./+types/account-confirm-identity";
import { ConfirmIdentityPage } from "~/features/account/confirm-identity-page";
import { confirmIdentityAction, confirmIdentityScreen } from "~/features/account/account-center.server";
import { withSessionRefresh } from "~/features/auth";
import { pageMeta } from "~/features/seo/page-meta";

export const loader = ({ request }: Route.LoaderArgs) => confirmIdentityScreen(request);
export const action = ({ request }: Route.ActionArgs) => confirmIdentityAction(request);
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => withSessionRefresh(serverAction);

export const headers = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "確認身分", description: "變更重要設定前，請先確認是你本人。" });

export default function ConfirmIdentityScreen({ loaderData }: Route.ComponentProps) {
  return <ConfirmIdentityPage {...loaderData} />;
}
