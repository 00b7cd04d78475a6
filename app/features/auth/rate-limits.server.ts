import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import type { BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import type { ServerEnv } from "~/config/env.server";
import { authEndpointFor, authEndpoints, endpointsWhere, type AuthEndpoint, type RateLimitName } from "./auth-endpoints";
import { toE164 } from "./phone-number";
import { fixedWindowLimiter, type FixedWindow, type RateLimitStore } from "~/services/rate-limiter.server";

/**
 * The sign-in layer's limits, from the RATE_LIMIT_* variables (docs/configuration.md) named by the rows of the
 * endpoint table. Per IP: generous, because a whole family (or a school) often shares one home IP. Per account:
 * strict, because that is where guessing passwords or flooding an inbox happens.
 */
function rulesFrom(env: ServerEnv, pick: (row: AuthEndpoint) => RateLimitName | undefined): Record<string, FixedWindow> {
  return Object.fromEntries(authEndpoints.flatMap((row) => (pick(row) ? [[row.path, env[pick(row)!]]] : [])));
}

export const perIpRules = (env: ServerEnv) => rulesFrom(env, (row) => row.perIp);

/** Per account, every attempt counts — except sign-in, where only failures do (see `accountRateLimit`). */
export const perAccountRules = (env: ServerEnv) => rulesFrom(env, (row) => row.perAccount);

const tooManyRequests = (retryAfterSeconds: number) =>
  new APIError(
    "TOO_MANY_REQUESTS",
    { code: "TOO_MANY_REQUESTS", message: "Too many requests for this account" },
    // The standard header, and Better Auth's own name for it, which its browser client reads.
    { "Retry-After": String(retryAfterSeconds), "X-Retry-After": String(retryAfterSeconds) },
  );

/** Better Auth's own limiter (per IP and path), switched on explicitly and backed by our store. */
export function ipRateLimitOptions(env: ServerEnv, store: RateLimitStore): NonNullable<BetterAuthOptions["rateLimit"]> {
  const rules = perIpRules(env);
  return {
    enabled: true,
    window: env.RATE_LIMIT_AUTH_PER_IP.windowSeconds,
    max: env.RATE_LIMIT_AUTH_PER_IP.max,
    customRules: Object.fromEntries(Object.entries(rules).map(([path, rule]) => [path, { window: rule.windowSeconds, max: rule.max }])),
    customStorage: {
      async consume(key, rule) {
        const decision = await fixedWindowLimiter(store, { max: rule.max, windowSeconds: rule.window }, "ip:").hit(key);
        return decision.allowed ? { allowed: true, retryAfter: null } : { allowed: false, retryAfter: decision.retryAfterSeconds };
      },
    },
  };
}

const emailOf = (body: unknown) => {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === "string" && email ? email.trim().toLowerCase() : undefined;
};

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** Whom a per-account limit counts: the typed email, the typed number (as stored) or the signed-in account. */
async function identifierOf(row: AuthEndpoint, ctx: HookContext, env: ServerEnv): Promise<string | undefined> {
  if (row.perAccountBy === "signed-in-user") return (await getSessionFromCtx(ctx))?.user.email.toLowerCase();
  if (row.perAccountBy === "phone-number") {
    const typed = (ctx.body as { phoneNumber?: unknown } | undefined)?.phoneNumber;
    return typeof typed === "string" ? (toE164(typed, env.SMS_ALLOWED_COUNTRIES) ?? undefined) : undefined;
  }
  return emailOf(ctx.body);
}

/** Requests that try a password (a sign-in, a password change): their rows name whose it is. */
const triesPassword = endpointsWhere((row) => row.lockout);

/** Whose password is tried: the typed email at sign-in, the signed-in user's own when changing it. */
async function passwordOwner(ctx: HookContext): Promise<string | undefined> {
  if (authEndpointFor(ctx)?.lockout === "typed-email") return emailOf(ctx.body);
  return (await getSessionFromCtx(ctx))?.user.email.toLowerCase();
}

/**
 * Per-account limits. Sign-in is a lockout: only failed attempts count, a success clears the count, and once
 * RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT failures are reached every attempt is refused until the window ends.
 * A wrong current password on a password change counts towards the same lockout, so a borrowed session cannot
 * guess the password any faster than the sign-in screen. Everything over a limit answers 429 with Retry-After.
 */
export function accountRateLimit(env: ServerEnv, store: RateLimitStore): BetterAuthPlugin {
  const lockout = fixedWindowLimiter(store, env.RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT, "account-failures:");
  return {
    id: "account-rate-limit",
    hooks: {
      before: [
        {
          matcher: triesPassword,
          handler: createAuthMiddleware(async (ctx) => {
            const email = await passwordOwner(ctx);
            if (!email) return;
            const decision = await lockout.check(email);
            if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds);
          }),
        },
        {
          matcher: endpointsWhere((row) => row.perAccount),
          handler: createAuthMiddleware(async (ctx) => {
            const row = authEndpointFor(ctx);
            const rule = row?.perAccount && env[row.perAccount];
            const who = row && (await identifierOf(row, ctx, env));
            if (!rule || !who) return;
            const decision = await fixedWindowLimiter(store, rule, `account:${row.path}:`).hit(who);
            if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds);
          }),
        },
      ],
      after: [
        {
          matcher: triesPassword,
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            const failed =
              returned instanceof APIError
                ? returned.statusCode === 401 || returned.body?.code === "INVALID_PASSWORD"
                : returned instanceof Response && returned.status === 401;
            // Only a sign-in says who it was after success (a password change may have replaced the session).
            if (!failed && !ctx.context.newSession) return;
            const email = await passwordOwner(ctx);
            if (!email) return;
            if (failed) await lockout.hit(email);
            else await lockout.reset(email);
          }),
        },
      ],
    },
  };
}
