import type { Route } from "./+types/tutorial";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "使用教學", description: "一步一步學會使用任務小勇士" });

export default function TutorialScreen() {
  return (
    <main className="page">
      <h1>使用教學</h1>
    </main>
  );
}
