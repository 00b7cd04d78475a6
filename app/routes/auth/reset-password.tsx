import type { Route } from "./+types/reset-password";
import { pageMeta } from "~/features/seo/page-meta";
import { ResetPasswordScreen } from "~/features/sign-in/screens/reset-password-screen";
import { signInScreenSettings } from "~/features/auth/index.server";
import { actionRetryAfter, resetPasswordAction } from "~/features/sign-in/sign-in-actions.server";
import { withSessionRefresh } from "~/features/auth";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "重設密碼", description: "設定新的密碼" });

export const loader = () => ({ policy: signInScreenSettings().policy });
export const action = ({ request }: Route.ActionArgs) => resetPasswordAction(request);
export const headers = actionRetryAfter;
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => withSessionRefresh(serverAction);

export default function ResetPassword({ loaderData }: Route.ComponentProps) {
  return <ResetPasswordScreen policy={loaderData.policy} />;
}
