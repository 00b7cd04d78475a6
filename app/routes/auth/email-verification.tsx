import type { Route } from "./+types/email-verification";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "驗證電子郵件", description: "完成電子郵件驗證" });

export default function EmailVerificationScreen() {
  return (
    <main className="page">
      <h1>驗證電子郵件</h1>
    </main>
  );
}
