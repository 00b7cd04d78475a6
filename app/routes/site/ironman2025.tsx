import type { Route } from "./+types/ironman2025";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "技術文章", description: "2025 iThome 鐵人賽技術文章系列" });

export default function Ironman2025Screen() {
  return (
    <main className="page">
      <h1>技術文章</h1>
    </main>
  );
}
