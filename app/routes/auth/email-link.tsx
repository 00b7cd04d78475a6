import type { Route } from "./+types/email-link";
import { pageMeta } from "~/features/seo/page-meta";
import { EmailLinkScreen } from "~/features/sign-in/screens/email-link-screen";
import { wayInAction } from "~/features/sign-in/sign-in-actions.server";
import { withSessionRefresh } from "~/features/auth";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "用電子郵件連結登入", description: "用寄到信箱的連結登入" });

export const action = ({ request }: Route.ActionArgs) => wayInAction("email-link", request);
export const clientAction = ({ serverAction }: Route.ClientActionArgs) => withSessionRefresh(serverAction);

// The mailed token stays out of shared caches and of the address other sites see.
export const headers = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

export default function EmailLink() {
  return <EmailLinkScreen />;
}
