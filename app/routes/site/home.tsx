import type { Route } from "./+types/home";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "首頁", description: "幫助孩子養成獨立與責任感的遊戲化任務管理 App" });

export default function HomeScreen() {
  return (
    <main className="page">
      <h1>首頁</h1>
    </main>
  );
}
