import type { Route } from "./+types/account-deletion";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "刪除帳號", description: "如何刪除任務小勇士帳號與資料" });

export default function AccountDeletionScreen() {
  return (
    <main className="page">
      <h1>刪除帳號</h1>
    </main>
  );
}
