import type { Route } from "./+types/forgot-password";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "忘記密碼", description: "寄送重設密碼信" });

export default function ForgotPasswordScreen() {
  return (
    <main className="page">
      <h1>忘記密碼</h1>
    </main>
  );
}
