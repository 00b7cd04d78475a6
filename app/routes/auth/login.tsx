import type { Route } from "./+types/login";
import { pageMeta } from "~/features/seo/page-meta";
import { LoginScreen } from "~/features/auth/screens/login-screen";
import { getAuthService } from "~/features/auth/auth-service.server";
import { enabledSocialProviders } from "~/features/auth/social-providers.server";
import { actionRetryAfter, loginAction } from "~/features/auth/auth-actions.server";
import { withSessionRefresh } from "~/features/auth/auth-provider";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "登入", description: "登入任務小勇士帳號" });

export const loader = () => ({ providers: enabledSocialProviders(getAuthService()) });
export const action = ({ request }: Route.ActionArgs) => loginAction(request);
export const headers = actionRetryAfter;
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => withSessionRefresh(serverAction);

export default function Login({ loaderData }: Route.ComponentProps) {
  return <LoginScreen providers={loaderData.providers} />;
}
