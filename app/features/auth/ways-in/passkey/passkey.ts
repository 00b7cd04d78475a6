import type { AuthErrorCode } from "~/features/auth/auth-error-messages";
import * as authPaths from "~/features/auth/auth-paths";
import { wayIn } from "~/features/auth/way-in";

const post = ["POST"] as const;
const get = ["GET"] as const;

const passkeyErrors = {
  INVALID_PASSKEY: "auth/invalid-passkey",
  PASSKEY_NOT_FOUND: "auth/passkey-not-found",
  OPERATION_NOT_ALLOWED: "auth/operation-not-allowed",
  FAILED_TO_UNLINK_LAST_ACCOUNT: "auth/last-sign-in-method",
} as const satisfies Record<string, AuthErrorCode>;

/**
 * Passkeys (ways-in/passkey/passkey.server.ts, on @simplewebauthn/server): two factors in one, no code after them. Adding and
 * removing one is a sensitive change whose notice the endpoint sends; the last passkey of an account with no other
 * way in stays.
 */
export const passkeyWayIn = wayIn({
  id: "passkey",
  identifies: "device",
  screens: ["/login", "/account/security"],
  accountCenter: { label: "密碼金鑰", listed: true, adds: ["passkeyRegisterVerify"], removes: ["passkeyDelete"] },
  rows: {
    passkeyRegisterOptions: { path: authPaths.passkeyRegisterOptions, methods: post, session: "none", origin: "site", lockout: false, metric: false, needs: "session", oneFactor: false, perIp: "RATE_LIMIT_AUTH_PER_IP", perIdentifier: false, recentSignIn: true, errors: passkeyErrors, audit: false, botCheck: false, proves: false, notice: false },
    passkeyRegisterVerify: { path: authPaths.passkeyRegisterVerify, methods: post, session: "none", origin: "site", lockout: false, metric: false, needs: "session", oneFactor: false, perIp: "RATE_LIMIT_AUTH_PER_IP", perIdentifier: false, recentSignIn: true, errors: passkeyErrors, audit: "passkey-added", botCheck: false, proves: false, notice: { byEndpoint: "passkey-added" } },
    passkeyList: { path: authPaths.passkeyList, methods: get, session: "none", origin: "site", lockout: false, metric: false, needs: "session", oneFactor: false, perIp: "RATE_LIMIT_AUTH_PER_IP", perIdentifier: false, recentSignIn: false, audit: false, botCheck: false, proves: false, notice: false },
    passkeyRename: { path: authPaths.passkeyRename, methods: post, session: "none", origin: "site", lockout: false, metric: false, needs: "session", oneFactor: false, perIp: "RATE_LIMIT_AUTH_PER_IP", perIdentifier: false, recentSignIn: false, errors: passkeyErrors, audit: false, botCheck: false, proves: false, notice: false },
    passkeyDelete: { path: authPaths.passkeyDelete, methods: post, session: "none", origin: "site", lockout: false, metric: false, needs: "session", oneFactor: false, perIp: "RATE_LIMIT_AUTH_PER_IP", perIdentifier: false, recentSignIn: true, errors: passkeyErrors, audit: "passkey-removed", botCheck: false, proves: false, notice: { byEndpoint: "passkey-removed" } },
    passkeySignInOptions: { path: authPaths.passkeySignInOptions, methods: post, session: "none", origin: "site", lockout: false, metric: false, needs: "nothing", oneFactor: false, perIp: "RATE_LIMIT_SIGN_IN_PER_IP", perIdentifier: false, recentSignIn: false, audit: false, botCheck: false, proves: false, notice: false },
    passkeySignInVerify: { path: authPaths.passkeySignInVerify, methods: post, session: "creates", origin: "site", lockout: false, metric: "sign-in", needs: "nothing", oneFactor: false, perIp: "RATE_LIMIT_SIGN_IN_PER_IP", perIdentifier: false, recentSignIn: false, errors: passkeyErrors, audit: "sign-in", botCheck: false, proves: false, notice: false },
  },
});
