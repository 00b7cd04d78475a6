import type { Route } from "./+types/email-verification";
import { pageMeta } from "~/features/seo/page-meta";
import { EmailVerificationScreen } from "~/features/sign-in/screens/email-verification-screen";
import { actionRetryAfter, resendVerificationAction } from "~/features/sign-in/sign-in-actions.server";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "驗證電子郵件", description: "完成電子郵件驗證" });

export const action = ({ request }: Route.ActionArgs) => resendVerificationAction(request);
export const headers = actionRetryAfter;

export default function EmailVerification() {
  return <EmailVerificationScreen />;
}
