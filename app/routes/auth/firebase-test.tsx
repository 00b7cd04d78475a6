import type { Route } from "./+types/firebase-test";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "登入服務自我檢測", description: "檢查登入服務的狀態" });

export default function FirebaseTestScreen() {
  return (
    <main className="page">
      <h1>登入服務自我檢測</h1>
    </main>
  );
}
