import type { Route } from "./+types/wishing-well";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "許願池", description: "告訴我們您希望新增的功能" });

export default function WishingWellScreen() {
  return (
    <main className="page">
      <h1>許願池</h1>
    </main>
  );
}
