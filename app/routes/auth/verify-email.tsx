import type { Route } from "./+types/verify-email";
import { pageMeta } from "~/features/seo/page-meta";
import { VerifyEmailScreen } from "~/features/sign-in/screens/verify-email-screen";
import { actionRetryAfter, verifyEmailAction } from "~/features/sign-in/sign-in-actions.server";
import { withSessionRefresh } from "~/features/auth";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "電子郵件驗證", description: "驗證電子郵件" });

export const action = ({ request }: Route.ActionArgs) => verifyEmailAction(request);
export const headers = actionRetryAfter;
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => withSessionRefresh(serverAction);

export default function VerifyEmail() {
  return <VerifyEmailScreen />;
}
