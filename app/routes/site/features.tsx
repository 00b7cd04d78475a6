import type { Route } from "./+types/features";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "功能介紹", description: "任務卡、每日行程、點數與星星、獎勵與成就" });

export default function FeaturesScreen() {
  return (
    <main className="page">
      <h1>功能介紹</h1>
    </main>
  );
}
