import type { Route } from "./+types/pricing";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "免費方案", description: "免費方案包含的功能" });

export default function PricingScreen() {
  return (
    <main className="page">
      <h1>免費方案</h1>
    </main>
  );
}
