import type { Route } from "./+types/email-code";
import { pageMeta } from "~/features/seo/page-meta";
import { EmailCodeScreen } from "~/features/sign-in/screens/email-code-screen";
import { wayInAction } from "~/features/sign-in/sign-in-actions.server";
import { withSessionRefresh } from "~/features/auth";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "用電子郵件驗證碼登入", description: "用寄到信箱的 6 位數驗證碼登入" });

export const action = ({ request }: Route.ActionArgs) => wayInAction("email-code", request);
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => withSessionRefresh(serverAction);

export const headers = () => ({ "Cache-Control": "private, no-store" });

export default function EmailCode() {
  return <EmailCodeScreen />;
}
