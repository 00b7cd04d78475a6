import type { Route } from "./+types/forgot-password";
import { pageMeta } from "~/features/seo/page-meta";
import { ForgotPasswordScreen } from "~/features/sign-in/screens/forgot-password-screen";
import { actionRetryAfter, forgotPasswordAction } from "~/features/sign-in/sign-in-actions.server";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "忘記密碼", description: "寄送重設密碼信" });

export const action = ({ request }: Route.ActionArgs) => forgotPasswordAction(request);
export const headers = actionRetryAfter;

export default function ForgotPassword() {
  return <ForgotPasswordScreen />;
}
