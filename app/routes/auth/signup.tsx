import type { Route } from "./+types/signup";
import { pageMeta } from "~/features/seo/page-meta";
import { SignupScreen } from "~/features/sign-in/screens/signup-screen";
import { signInScreenSettings } from "~/features/auth/index.server";
import { actionRetryAfter, signupAction } from "~/features/sign-in/sign-in-actions.server";
import { withSessionRefresh } from "~/features/auth";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "註冊", description: "建立任務小勇士帳號" });

export const loader = () => ({ policy: signInScreenSettings().policy });
export const action = ({ request }: Route.ActionArgs) => signupAction(request);
export const headers = actionRetryAfter;
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => withSessionRefresh(serverAction);

export default function Signup({ loaderData }: Route.ComponentProps) {
  return <SignupScreen policy={loaderData.policy} />;
}
