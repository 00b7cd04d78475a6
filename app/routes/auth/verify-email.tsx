import type { Route } from "./+types/verify-email";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "電子郵件驗證", description: "驗證電子郵件地址" });

export default function VerifyEmailScreen() {
  return (
    <main className="page">
      <h1>電子郵件驗證</h1>
    </main>
  );
}
