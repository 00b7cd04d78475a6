import type { Route } from "./+types/account-two-step";
import { TwoStepPage } from "~/features/account/two-step-page";
import { twoStepSettings, twoStepSettingsAction } from "~/features/account/second-factor-settings.server";
import { withSessionRefresh } from "~/features/auth";
import { pageMeta } from "~/features/seo/page-meta";

// Per visitor, never cached: the enrolment answer carries the secret and the backup codes.
export const loader = ({ request }: Route.LoaderArgs) => twoStepSettings(request);
export const action = ({ request }: Route.ActionArgs) => twoStepSettingsAction(request);
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => withSessionRefresh(serverAction);
export const headers = () => ({ "Cache-Control": "private, no-store" });

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "兩步驟驗證", description: "開啟或關閉兩步驟驗證。" });

export default function AccountTwoStep({ loaderData }: Route.ComponentProps) {
  return <TwoStepPage {...loaderData} />;
}
