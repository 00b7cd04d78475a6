import type { Route } from "./+types/phone";
import { pageMeta } from "~/features/seo/page-meta";
import { PhoneScreen } from "~/features/sign-in/screens/phone-screen";
import { wayInAction } from "~/features/sign-in/sign-in-actions.server";
import { withSessionRefresh } from "~/features/auth";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "用手機號碼登入", description: "用簡訊驗證碼登入或註冊" });

export const action = ({ request }: Route.ActionArgs) => wayInAction("phone", request);
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => withSessionRefresh(serverAction);

export const headers = () => ({ "Cache-Control": "private, no-store" });

export default function Phone() {
  return <PhoneScreen />;
}
