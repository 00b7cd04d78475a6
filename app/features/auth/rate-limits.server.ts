import { APIError, createAuthMiddleware } from "better-auth/api";
import type { BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import type { ServerEnv } from "~/config/env.server";
import { fixedWindowLimiter, type FixedWindow, type RateLimitStore } from "~/services/rate-limiter.server";

/**
 * The sign-in layer's limits, from the RATE_LIMIT_* variables (docs/configuration.md).
 * Per IP: generous, because a whole family (or a school) often shares one home IP.
 * Per account: strict, because that is where guessing passwords or flooding an inbox happens.
 */
export function perIpRules(env: ServerEnv): Record<string, FixedWindow> {
  return {
    "/sign-in/email": env.RATE_LIMIT_SIGN_IN_PER_IP,
    "/sign-up/email": env.RATE_LIMIT_SIGN_UP_PER_IP,
    "/sign-in/anonymous": env.RATE_LIMIT_GUEST_PER_IP,
    "/guest/upgrade": env.RATE_LIMIT_GUEST_PER_IP,
    "/request-password-reset": env.RATE_LIMIT_MAIL_PER_IP,
    "/send-verification-email": env.RATE_LIMIT_MAIL_PER_IP,
  };
}

/** Per account, every attempt counts — except sign-in, where only failures do (see `signInLockout`). */
export function perAccountRules(env: ServerEnv): Record<string, FixedWindow> {
  return {
    "/sign-up/email": env.RATE_LIMIT_SIGN_UP_PER_ACCOUNT,
    "/request-password-reset": env.RATE_LIMIT_PASSWORD_RESET_PER_ACCOUNT,
    "/send-verification-email": env.RATE_LIMIT_VERIFICATION_MAIL_PER_ACCOUNT,
    "/guest/upgrade": env.RATE_LIMIT_GUEST_UPGRADE_PER_ACCOUNT,
  };
}

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

/**
 * Per-account limits. Sign-in is a lockout: only failed attempts count, a success clears the count, and once
 * RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT failures are reached every attempt is refused until the window ends.
 * Everything over a limit answers 429 with Retry-After.
 */
export function accountRateLimit(env: ServerEnv, store: RateLimitStore): BetterAuthPlugin {
  const rules = perAccountRules(env);
  const lockout = fixedWindowLimiter(store, env.RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT, "account-failures:/sign-in/email:");
  return {
    id: "account-rate-limit",
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === "/sign-in/email",
          handler: createAuthMiddleware(async (ctx) => {
            const email = emailOf(ctx.body);
            if (!email) return;
            const decision = await lockout.check(email);
            if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds);
          }),
        },
        {
          matcher: (ctx) => Boolean(ctx.path && rules[ctx.path]),
          handler: createAuthMiddleware(async (ctx) => {
            const rule = rules[ctx.path];
            const email = emailOf(ctx.body);
            if (!rule || !email) return;
            const decision = await fixedWindowLimiter(store, rule, `account:${ctx.path}:`).hit(email);
            if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds);
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => ctx.path === "/sign-in/email",
          handler: createAuthMiddleware(async (ctx) => {
            const email = emailOf(ctx.body);
            if (!email) return;
            const returned = ctx.context.returned;
            const failed = returned instanceof APIError ? returned.statusCode === 401 : returned instanceof Response && returned.status === 401;
            if (failed) await lockout.hit(email);
            else if (ctx.context.newSession) await lockout.reset(email);
          }),
        },
      ],
    },
  };
}
