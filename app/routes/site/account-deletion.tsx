import type { Route } from "./+types/account-deletion";
import { loadData } from "~/features/pages/data.server";
import { AccountDeletionPage } from "~/features/account/account-deletion-page";
import { deleteAccountAction, signedInAccount } from "~/features/account/account-actions.server";
import { fromAppOutcome } from "~/features/account/app-deletion.server";
import { accountDeletionSchema } from "~/features/account/account-schemas";
import { withSessionRefresh } from "~/features/auth";
import { pageMeta } from "~/features/seo/page-meta";

// Server-rendered per visitor (never prerendered): the form shows only to the signed-in account.
// `?app=` says how the app's link (/account-deletion/from-app) ended.
export const loader = async ({ request }: Route.LoaderArgs) => ({
  ...loadData("accountDeletion"),
  account: await signedInAccount(request),
  fromAppOutcome: fromAppOutcome(new URL(request.url).searchParams.get("app")),
});
export const action = ({ request }: Route.ActionArgs) =>
  deleteAccountAction(request, accountDeletionSchema(loadData("accountDeletion").selfService.confirmWord));
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => withSessionRefresh(serverAction);

export const meta: Route.MetaFunction = (args) => pageMeta(args, args.loaderData?.intro ?? { title: "刪除帳號" });

export default function AccountDeletionScreen({ loaderData }: Route.ComponentProps) {
  return <AccountDeletionPage {...loaderData} />;
}
