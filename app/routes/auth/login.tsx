import type { Route } from "./+types/login";
import { pageMeta } from "~/features/seo/page-meta";
import { LoginScreen } from "~/features/sign-in/screens/login-screen";
import { actionRetryAfter, loginAction } from "~/features/sign-in/sign-in-actions.server";
import { signInScreenSettings } from "~/features/auth/index.server";
import { loginClientAction } from "~/features/sign-in/login-client-action";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "登入", description: "登入任務小勇士帳號" });

export const loader = () => ({ providers: signInScreenSettings().providers });
export const action = ({ request }: Route.ActionArgs) => loginAction(request);
export const headers = actionRetryAfter;
export const clientAction = ({ request, serverAction }: Route.ClientActionArgs) => loginClientAction(request, serverAction);

export default function Login({ loaderData }: Route.ComponentProps) {
  return <LoginScreen providers={loaderData.providers} />;
}
