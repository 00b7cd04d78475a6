import type { Route } from "./+types/reset-password";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "重設密碼", description: "設定新的密碼" });

export default function ResetPasswordScreen() {
  return (
    <main className="page">
      <h1>重設密碼</h1>
    </main>
  );
}
