import type { BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import { jwt } from "better-auth/plugins/jwt";
import { accountRateLimit } from "./rate-limits.server";
import { auditLog } from "./auth-logging.server";
import { identityEndpoint } from "./identity-endpoint.server";
import { deviceSessions } from "./device-sessions.server";
import { signInRules } from "./sign-in-rules.server";
import { siteContextWords } from "./password-policy-context.server";
import type { PasswordPolicy } from "./password-policy";
import { enabledSocialProviders } from "./social-providers.server";
import { redirectRule } from "./redirect-rule.server";
import { endPresentedSession } from "./sessions.server";
import { singleUseLinks } from "./single-use-links.server";
import { recentSignIn } from "./recent-sign-in.server";
import { accountNotices } from "./account-notices.server";
import { emailChangeLinks } from "./email-change-links.server";
import { signInMethods } from "./sign-in-methods.server";
import { knownDevices } from "./known-devices.server";
import { accountData } from "./account-data.server";
import { twoStepSignIn } from "./two-step.server";
import { accountLock } from "./account-lock.server";
import { botCheck, botCheckSecret } from "./bot-check.server";
import { unprovenAccess } from "./unproven-access.server";
import { verificationLinkLifetime } from "./email-password-options.server";
import type { AuthDependencies } from "./auth.server";

/**
 * The site's Better Auth plugins, in the order their hooks run (the comments say where the order matters), with
 * the ways in's own plugins in their two places (way-in-plugins.server.ts).
 */
export function authPlugins(
  { env, database, rateLimitStore, devIdentityProvider }: AuthDependencies,
  { secret, ways, policy }: { secret: string; ways: { plugins: BetterAuthPlugin[]; afterTwoStep: BetterAuthPlugin[] }; policy: PasswordPolicy },
) {
  return [
    accountLock(database),
    // Before the per-account limits: a request without a solved check never spends someone's quota.
    botCheck(env, rateLimitStore, botCheckSecret(env, secret)),
    accountRateLimit(env, rateLimitStore),
    redirectRule(env.SITE_URL),
    singleUseLinks(database.db, verificationLinkLifetime),
    // Only the newest email-change link works, and a taken address is a clear refusal.
    emailChangeLinks(database.db),
    // Before the anonymous plugin: an unverified sign-in is refused before a guest's data would move.
    signInRules({ policy, siteWords: siteContextWords(env), siteUrl: env.SITE_URL }),
    // A sensitive change long after sign-in waits for the password (or another proof) again.
    recentSignIn(),
    accountNotices(database.db, env),
    signInMethods(database, env, () => enabledSocialProviders({ env, devIdentityProvider })),
    knownDevices(database, env),
    accountData(database.db),
    // Each way in's own plugins (way-in-plugins.server.ts), in the units' order.
    ...ways.plugins,
    // Before two-step sign-in: a proof that removed someone else's two-step asks for no code (unproven-access).
    unprovenAccess(),
    // After every one-factor way in (it turns their session into a pending code), before the pop-up plugin
    // (which answers the opener from the callback's final redirect).
    twoStepSignIn(database.db, env, secret),
    identityEndpoint(),
    deviceSessions(),
    ...ways.afterTwoStep,
    // Short-lived signed tokens (GET /api/auth/token, keys at /api/auth/jwks) for file storage and the app.
    jwt({
      // Nothing reads the `set-auth-jwt` header a session lookup would sign (storage and the app take their tokens
      // from GET /api/auth/token): without it a session check saves the signing key's read and an ES256 signature.
      disableSettingJwtHeader: true,
      jwt: {
        expirationTime: "15m",
        // `sid` names the session: file storage refuses the token once that session has ended (sign-out,
        // password change or reset, device sign-out, operator sign-out, account deletion).
        definePayload: ({ user, session }) => ({ role: user.role ?? "user", isAnonymous: Boolean(user.isAnonymous), sid: session.id }),
      },
    }),
    // After the anonymous plugin, which needs the guest's session to move the guest's rows.
    endPresentedSession(),
    auditLog(database),
  ] satisfies BetterAuthOptions["plugins"];
}
