import { resetPasswordPage } from "~/features/auth/auth-client";
import * as authPaths from "~/features/auth/auth-paths";
import { wayIn } from "~/features/auth/way-in";

const post = ["POST"] as const;
const get = ["GET"] as const;

/**
 * Email and password (Better Auth's core): sign up, sign in, the reset link, changing the password and giving an
 * account without one its first. The person is the typed email (the signed-in account once signed in).
 */
export const passwordWayIn = wayIn({
  id: "password",
  identifies: "email",
  screens: ["/signup", "/login", "/forgot-password", resetPasswordPage, "/account/security"],
  accountCenter: { label: "電子郵件與密碼", listed: true, adds: ["setPassword"], removes: ["signInMethodsRemove"] },
  rows: {
    signUpEmail: { path: authPaths.signUpEmail, methods: post, startsAccount: true, session: "creates", origin: "site", lockout: false, metric: false, needs: "nothing", oneFactor: false, perIp: "RATE_LIMIT_SIGN_UP_PER_IP", perIdentifier: { limit: "RATE_LIMIT_SIGN_UP_PER_ACCOUNT", by: "email" }, recentSignIn: false, newPassword: "password", displayName: true, audit: "sign-up", botCheck: true, proves: false, notice: false },
    signInEmail: { path: authPaths.signInEmail, methods: post, oneFactor: true, session: "creates", origin: "site", lockout: "email", metric: "sign-in", needs: "nothing", refuseUnverifiedEmail: true, perIp: "RATE_LIMIT_SIGN_IN_PER_IP", perIdentifier: false, recentSignIn: false, audit: "sign-in", botCheck: false, proves: ["pwd"], notice: false },
    requestPasswordReset: { path: authPaths.requestPasswordReset, methods: post, session: "none", origin: "site", lockout: false, metric: false, needs: "nothing", oneFactor: false, perIp: "RATE_LIMIT_MAIL_PER_IP", perIdentifier: { limit: "RATE_LIMIT_PASSWORD_RESET_PER_ACCOUNT", by: "email" }, recentSignIn: false, audit: "password-reset-request", botCheck: true, proves: false, notice: false },
    resetPasswordToken: { path: authPaths.resetPasswordToken, methods: get, session: "none", origin: "site", lockout: false, metric: false, needs: "nothing", oneFactor: false, perIp: "RATE_LIMIT_AUTH_PER_IP", perIdentifier: false, recentSignIn: false, audit: false, botCheck: false, proves: false, notice: false },
    // The reset link's own `onPasswordReset` tells the account (auth.server.ts).
    resetPassword: { path: authPaths.resetPassword, methods: post, session: "ends", origin: "site", lockout: false, metric: false, needs: "nothing", oneFactor: false, perIp: "RATE_LIMIT_AUTH_PER_IP", perIdentifier: false, recentSignIn: false, newPassword: "newPassword", audit: "password-reset", botCheck: false, proves: false, notice: { byEndpoint: "password-changed" } },
    // Changing the password checks the current one: as many tries as a sign-in, and failures count toward the lockout.
    changePassword: { path: authPaths.changePassword, methods: post, botCheck: false, proves: ["pwd"], notice: "password-changed", session: "renews", origin: "site", lockout: "signed-in-account", metric: false, needs: "authoritative-session", oneFactor: false, recentSignIn: { passwordIn: "currentPassword" }, perIp: "RATE_LIMIT_SIGN_IN_PER_IP", perIdentifier: false, newPassword: "newPassword", audit: "password-change" },
    setPassword: {
      path: authPaths.setPassword,
      methods: post,
      session: "none",
      origin: "site", lockout: false, metric: false, needs: "session",
      oneFactor: false,
      recentSignIn: true,
      perIp: "RATE_LIMIT_SIGN_IN_PER_IP",
      perIdentifier: false,
      newPassword: "newPassword",
      errors: { PASSWORD_ALREADY_SET: "auth/password-already-set", GUEST_HAS_NO_PASSWORD: "auth/operation-not-allowed" },
      audit: "password-set",
      notice: { byEndpoint: "password-set" },
      botCheck: false, proves: false,
    },
  },
});
