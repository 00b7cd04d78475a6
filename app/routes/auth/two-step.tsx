import type { Route } from "./+types/two-step";
import { pageMeta } from "~/features/seo/page-meta";
import { TwoStepScreen } from "~/features/sign-in/screens/two-step-screen";
import { twoStepChallengeAction } from "~/features/sign-in/sign-in-actions.server";
import { withSessionRefresh } from "~/features/auth";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "兩步驟驗證", description: "輸入驗證碼完成登入" });

export const action = ({ request }: Route.ActionArgs) => twoStepChallengeAction(request);
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => withSessionRefresh(serverAction);

export default function TwoStep() {
  return <TwoStepScreen />;
}
