import type { Route } from "./+types/faq";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "常見問題", description: "帳號、兒童隱私、訪客模式、方案與裝置的常見問題" });

export default function FaqScreen() {
  return (
    <main className="page">
      <h1>常見問題</h1>
    </main>
  );
}
