import * as authPaths from "~/features/auth/auth-paths";
import { wayIn } from "~/features/auth/way-in";

const post = ["POST"] as const;

/**
 * A guest (Better Auth's anonymous plugin) and its in-place upgrade (ways-in/guest/guest.server.ts): the browser is
 * the person until the guest signs up; the upgrade then counts per typed email.
 */
export const guestWayIn = wayIn({
  id: "guest",
  identifies: "device",
  screens: ["/signup"],
  accountCenter: { label: "訪客", listed: false, adds: [], removes: [] },
  rows: {
    signInAnonymous: { path: authPaths.signInAnonymous, methods: post, startsAccount: true, session: "creates", origin: "site", lockout: false, metric: false, needs: "nothing", oneFactor: false, perIp: "RATE_LIMIT_GUEST_PER_IP", perIdentifier: false, recentSignIn: false, errors: { ANONYMOUS_USERS_CANNOT_SIGN_IN_AGAIN_ANONYMOUSLY: "auth/operation-not-allowed" }, audit: "guest-sign-in", botCheck: true, proves: false, notice: false },
    deleteAnonymousUser: { path: authPaths.deleteAnonymousUser, methods: post, session: "ends", origin: "site", lockout: false, metric: false, needs: "authoritative-session", oneFactor: false, perIp: "RATE_LIMIT_AUTH_PER_IP", perIdentifier: false, recentSignIn: false, audit: "account-deletion", botCheck: false, proves: false, notice: false },
    // A new session for the same (now named) user; the guest's own ends inside the endpoint.
    guestUpgrade: { path: authPaths.guestUpgrade, methods: post, startsAccount: true, session: "creates", origin: "site", lockout: false, metric: false, needs: "session", oneFactor: false, perIp: "RATE_LIMIT_GUEST_PER_IP", perIdentifier: { limit: "RATE_LIMIT_GUEST_UPGRADE_PER_ACCOUNT", by: "email" }, recentSignIn: false, newPassword: "password", displayName: true, errors: { NOT_ANONYMOUS: "auth/not-anonymous" }, audit: "guest-upgrade", botCheck: true, proves: false, notice: false },
  },
});
