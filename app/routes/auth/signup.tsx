import type { Route } from "./+types/signup";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "註冊", description: "建立任務小勇士帳號" });

export default function SignupScreen() {
  return (
    <main className="page">
      <h1>註冊</h1>
    </main>
  );
}
