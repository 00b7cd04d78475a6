import { betterAuth, type BetterAuthOptions } from "better-auth";
import type { DatabaseHandle } from "~/db/connection.server";
import type { ServerEnv } from "~/config/env.server";
import { ipRateLimitOptions } from "./rate-limits.server";
import { authLogging } from "./auth-logging.server";
import type { RateLimitStore } from "~/services/rate-limiter.server";
import { clientIpHeader } from "~/services/client-ip.server";
import { trustedOrigins } from "~/services/trusted-origins.server";
import { refuseSessionsPastAbsoluteAge, sessionOptions } from "./sessions.server";
import { convertLegacyBackupCodes } from "./backup-codes.server";
import { whenMigrated } from "~/db/db.server";
import { getLogger } from "~/services/logger.server";
import { wayInPlugins } from "./way-in-plugins.server";
import { authBasePath, authPaths } from "./auth-endpoints";
import { emailAndPasswordOptions, emailVerificationOptions } from "./email-password-options.server";
import { accountLinkingOptions, socialProviderOptions } from "./social-sign-in-options.server";
import { userOptions } from "./user-options.server";
import { userAndAccountHooks } from "./user-account-hooks.server";
import { authPlugins } from "./auth-plugins.server";
import { passwordPolicyFrom } from "./password-policy.server";
import { dropTypeOnlyHookMiddlewares } from "./type-only-middleware.server";

/** The sign-in layer's secret (a public site refuses to start without AUTH_SECRET: env.server.ts). */
const authSecret = (env: ServerEnv) => env.AUTH_SECRET ?? "development-secret-for-loopback-sites-only-0123456789";

export interface DevIdentityProvider {
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  /** Where the provider sends the browser back: the sign-in layer's callback for provider `dev`. */
  callbackUrl: string;
}

export interface AuthDependencies {
  env: ServerEnv;
  database: DatabaseHandle;
  rateLimitStore: RateLimitStore;
  devIdentityProvider?: DevIdentityProvider;
}

/**
 * Every Better Auth option of the site in one place; `createAuth` and the schema check share it. Each concern is
 * built beside this file, and keeps its literal types (`satisfies`), from which Better Auth infers the session's
 * fields and the plugins' endpoints.
 */
export function authOptions(deps: AuthDependencies) {
  const { env, database, rateLimitStore } = deps;
  const secret = authSecret(env);
  const sessions = sessionOptions(env);
  const policy = passwordPolicyFrom(env);
  const ways = wayInPlugins(deps);

  return {
    appName: env.PRODUCT_NAME,
    baseURL: env.SITE_URL,
    basePath: authBasePath,
    secret,
    // The app's own query builder: on SQLite both queue on one connection (decision 602), and a failed query is
    // noted against its request either way (503 when the database is away).
    database: { db: database.db, type: database.dialect, transaction: true },
    trustedOrigins: trustedOrigins(env),
    emailAndPassword: emailAndPasswordOptions(deps, policy),
    emailVerification: emailVerificationOptions(deps),
    socialProviders: socialProviderOptions(env),
    account: accountLinkingOptions(),
    // Removing a sign-in method goes through /sign-in-methods/remove (the last one stays, even under a race).
    // A way in's plugin endpoints the site does not offer come from its entry (the phone's password per number).
    disabledPaths: [authPaths.unlinkAccount, ...ways.switchedOff],
    user: userOptions(deps),
    databaseHooks: { ...sessions.databaseHooks, ...userAndAccountHooks(deps) },
    session: sessions.session,
    rateLimit: ipRateLimitOptions(env, rateLimitStore),
    advanced: {
      ...sessions.advanced,
      ipAddress: { ipAddressHeaders: [clientIpHeader] },
      // Better Auth turns the origin check off under a test runner; the site wants it on everywhere.
      disableOriginCheck: false,
    },
    telemetry: { enabled: false },
    // Refused sign-ins are expected traffic, not something to log line by line; errors go to the request log.
    ...authLogging(),
    plugins: authPlugins(deps, { secret, ways, policy }),
  } satisfies BetterAuthOptions;
}

export function createAuth(deps: AuthDependencies) {
  dropTypeOnlyHookMiddlewares();
  const auth = betterAuth(authOptions(deps));
  // Registered before any request can await the context, so no session is read before the check is in place.
  auth.$context.then((context) => refuseSessionsPastAbsoluteAge(context.internalAdapter, deps.env.SESSION_ABSOLUTE_DAYS)).catch(() => {});
  // Backup codes of the earlier format (one ciphertext) become salted hashes once, at start-up, after the
  // migrations (a fresh database has no table before them); until then they still work (backup-codes.server.ts).
  whenMigrated(deps.database)
    .then(() => convertLegacyBackupCodes(deps.database.db, authSecret(deps.env)))
    .catch((error: unknown) => getLogger().warn({ err: error }, "converting backup codes failed"));
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;
