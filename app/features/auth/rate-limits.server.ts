import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import type { BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import type { ServerEnv } from "~/config/env.server";
import { authEndpointFor, authEndpoints, endpointsWhere, type AuthEndpoint, type RateLimitName } from "./auth-endpoints";
import { toE164 } from "./phone-number";
import { catalogueCode } from "./api-errors.server";
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

/** Requests that try a secret (a sign-in, a password change, a texted code): their rows name whose it is. */
const triesSecret = endpointsWhere((row) => row.lockout);

const typedPhone = (ctx: HookContext, env: ServerEnv) => {
  const typed = (ctx.body as { phoneNumber?: unknown } | undefined)?.phoneNumber;
  const number = typeof typed === "string" ? toE164(typed, env.SMS_ALLOWED_COUNTRIES) : null;
  return number ? `phone:${number}` : undefined;
};

/**
 * Whose secret is tried, as the row's `lockout` names it: the typed email at sign-in, the typed number (as stored)
 * for a texted code, the signed-in user's own when changing a password.
 */
async function secretOwner(ctx: HookContext, env: ServerEnv): Promise<string | undefined> {
  const by = authEndpointFor(ctx)?.lockout;
  if (by === "typed-email") return emailOf(ctx.body);
  if (by === "phone-number") return typedPhone(ctx, env);
  return (await getSessionFromCtx(ctx))?.user.email.toLowerCase();
}

/** The catalogue codes that say a secret was wrong (not an expired code, a missing field, a limit). */
const wrongSecret = new Set(["auth/invalid-credential", "auth/invalid-verification-code", "auth/invalid-backup-code"]);

function triedWrongSecret(ctx: HookContext): boolean {
  const returned = ctx.context.returned;
  if (returned instanceof Response) return returned.status === 401;
  if (!(returned instanceof APIError)) return false;
  if (returned.statusCode === 401) return true;
  return wrongSecret.has(catalogueCode(returned.statusCode, returned.body ?? null, authEndpointFor(ctx)));
}

/**
 * Per-account limits. Sign-in is a lockout, keyed by the identifier its row names: only failed attempts count, a success clears the count, and once
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
          matcher: triesSecret,
          handler: createAuthMiddleware(async (ctx) => {
            const owner = await secretOwner(ctx, env);
            if (!owner) return;
            const decision = await lockout.check(owner);
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
          matcher: triesSecret,
          handler: createAuthMiddleware(async (ctx) => {
            const failed = triedWrongSecret(ctx);
            // Only a sign-in says who it was after success (a password change may have replaced the session).
            if (!failed && !ctx.context.newSession) return;
            const owner = await secretOwner(ctx, env);
            if (!owner) return;
            if (failed) await lockout.hit(owner);
            else await lockout.reset(owner);
          }),
        },
      ],
    },
  };
}
