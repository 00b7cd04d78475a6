import * as authPaths from "~/features/auth/auth-paths";
import { z } from "~/lib/zod";
import { wayIn } from "~/features/auth/way-in";

/** An email address as the sign-in forms take it (the sign-in screens' schemas use it too). */
export const emailAddress = z
  .string()
  .trim()
  .min(1, "請輸入電子郵件地址")
  .max(254, "電子郵件格式不正確")
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "電子郵件格式不正確");
/** The screen's request for a link (run in the browser and again by the twin's action). */
export const emailLinkRequestSchema = z.object({ email: emailAddress });

const post = ["POST"] as const;

/** Sign-in by emailed link (ways-in/email-link/email-link.server.ts): single-use, hashed, 15 minutes; the page's button signs in. */
export const emailLinkWayIn = wayIn({
  id: "email-link",
  identifies: "email",
  screens: ["/login/email-link"],
  accountCenter: { label: "電子郵件登入連結", listed: false, adds: [], removes: [] },
  rows: {
    emailLinkRequest: { path: authPaths.emailLinkRequest, methods: post, session: "none", origin: "site", lockout: false, metric: false, needs: "nothing", oneFactor: false, perIp: "RATE_LIMIT_MAIL_PER_IP", perIdentifier: { limit: "RATE_LIMIT_PASSWORD_RESET_PER_ACCOUNT", by: "email" }, recentSignIn: false, audit: "email-link-request", botCheck: true, proves: false, notice: false },
    emailLinkSignIn: { path: authPaths.emailLinkSignIn, methods: post, oneFactor: true, session: "creates", origin: "site", lockout: false, metric: "sign-in", needs: "nothing", perIp: "RATE_LIMIT_SIGN_IN_PER_IP", perIdentifier: false, recentSignIn: false, audit: "sign-in", botCheck: false, proves: false, notice: false },
  },
});
