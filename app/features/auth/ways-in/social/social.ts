import * as authPaths from "~/features/auth/auth-paths";
import { wayIn } from "~/features/auth/way-in";

const post = ["POST"] as const;
const get = ["GET"] as const;

/**
 * A social provider (Google, Facebook, LINE, Apple, the development provider): the provider vouches for the
 * person. Its callback proves one factor; linking one is a sensitive change told by the account's create hook
 * (auth.server.ts); removing one is the account center's `/sign-in-methods/remove`.
 */
export const socialWayIn = wayIn({
  id: "social",
  identifies: "provider",
  screens: ["/login", "/signup", "/account/security"],
  accountCenter: { label: "社群帳號", listed: true, adds: ["linkSocial"], removes: ["signInMethodsRemove"] },
  rows: {
    // With an ID token it signs in at once; otherwise it answers the provider's address.
    signInSocial: { path: authPaths.signInSocial, methods: post, session: "creates", origin: "site", lockout: false, metric: "sign-in", needs: "nothing", oneFactor: false, perIp: "RATE_LIMIT_SIGN_IN_PER_IP", perIdentifier: false, recentSignIn: false, audit: "sign-in", botCheck: false, proves: false, notice: false },
    callbackId: { path: authPaths.callbackId, methods: ["GET", "POST"], oneFactor: true, session: "creates", origin: "provider", lockout: false, metric: "sign-in", needs: "nothing", perIp: "RATE_LIMIT_AUTH_PER_IP", perIdentifier: false, recentSignIn: false, popupLanding: true, audit: "sign-in", botCheck: false, proves: false, notice: false },
    linkSocial: { path: authPaths.linkSocial, methods: post, session: "none", origin: "site", lockout: false, metric: false, needs: "authoritative-session", oneFactor: false, recentSignIn: true, perIp: "RATE_LIMIT_SIGN_IN_PER_IP", perIdentifier: false, errors: { SOCIAL_ACCOUNT_ALREADY_LINKED: "auth/provider-already-linked" }, audit: "sign-in-method-link", botCheck: false, proves: false, notice: { byEndpoint: "sign-in-method-added" } },
    // The pop-up sign-in (Better Auth's oauth-popup plugin); it lands on `/callback/:id`.
    oauthPopupStart: { path: authPaths.oauthPopupStart, methods: get, session: "none", origin: "site", lockout: false, metric: false, needs: "nothing", oneFactor: false, perIp: "RATE_LIMIT_AUTH_PER_IP", perIdentifier: false, recentSignIn: false, audit: false, botCheck: false, proves: false, notice: false },
  },
});
