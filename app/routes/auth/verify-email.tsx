import type { Route } from "./+types/verify-email";
import { pageMeta } from "~/features/seo/page-meta";
import { VerifyEmailScreen } from "~/features/auth/screens/verify-email-screen";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "電子郵件驗證", description: "驗證電子郵件" });

export default function VerifyEmail() {
  return <VerifyEmailScreen />;
}
