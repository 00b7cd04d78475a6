import type { Route } from "./+types/terms";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "服務條款", description: "使用任務小勇士的服務條款" });

export default function TermsScreen() {
  return (
    <main className="page">
      <h1>服務條款</h1>
    </main>
  );
}
