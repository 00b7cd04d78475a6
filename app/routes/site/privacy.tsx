import type { Route } from "./+types/privacy";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "隱私權政策", description: "任務小勇士如何蒐集、處理與利用個人資料" });

export default function PrivacyScreen() {
  return (
    <main className="page">
      <h1>隱私權政策</h1>
    </main>
  );
}
