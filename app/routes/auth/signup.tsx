import type { Route } from "./+types/signup";
import { pageMeta } from "~/features/seo/page-meta";
import { SignupScreen } from "~/features/sign-in/screens/signup-screen";
import { getAuthService } from "~/features/auth/auth-service.server";
import { signupAction } from "~/features/sign-in/sign-in-actions.server";
import { withSessionRefresh } from "~/features/auth/auth-provider";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "註冊", description: "建立任務小勇士帳號" });

export const loader = () => ({ policy: getAuthService().passwordPolicy });
export const action = ({ request }: Route.ActionArgs) => signupAction(request);
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => withSessionRefresh(serverAction);

export default function Signup({ loaderData }: Route.ComponentProps) {
  return <SignupScreen policy={loaderData.policy} />;
}
