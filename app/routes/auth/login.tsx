import type { Route } from "./+types/login";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "登入", description: "登入任務小勇士帳號" });

export default function LoginScreen() {
  return (
    <main className="page">
      <h1>登入</h1>
    </main>
  );
}
