import { APIError, createAuthMiddleware } from "better-auth/api";
import type { BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import type { RateLimitStore } from "~/services/rate-limit-store.server";

interface Rule {
  window: number;
  max: number;
}

/**
 * Per IP: generous, because a whole family (or a school) often shares one home IP.
 * Per account: strict, because that is where guessing passwords or flooding an inbox happens.
 */
export const perIpRules: Record<string, Rule> = {
  "/sign-in/email": { window: 60, max: 30 },
  "/sign-up/email": { window: 3600, max: 30 },
  "/sign-in/anonymous": { window: 3600, max: 30 },
  "/request-password-reset": { window: 3600, max: 30 },
  "/send-verification-email": { window: 3600, max: 30 },
  "/guest/upgrade": { window: 3600, max: 30 },
};

export const perAccountRules: Record<string, Rule> = {
  "/sign-in/email": { window: 900, max: 10 },
  "/sign-up/email": { window: 3600, max: 5 },
  "/request-password-reset": { window: 3600, max: 3 },
  "/send-verification-email": { window: 3600, max: 5 },
  "/guest/upgrade": { window: 3600, max: 5 },
};

/** Better Auth's own limiter (per IP and path), switched on explicitly and backed by our store. */
export function ipRateLimitOptions(store: RateLimitStore): NonNullable<BetterAuthOptions["rateLimit"]> {
  return {
    enabled: true,
    window: 60,
    max: 300,
    customRules: perIpRules,
    customStorage: {
      async consume(key, rule) {
        const { count, resetInSeconds } = await store.hit(`ip:${key}`, rule.window);
        return count <= rule.max ? { allowed: true, retryAfter: null } : { allowed: false, retryAfter: resetInSeconds };
      },
    },
  };
}

/** Counts every attempt per email address on the paths above; over the limit → 429 TOO_MANY_REQUESTS. */
export function accountRateLimit(store: RateLimitStore): BetterAuthPlugin {
  return {
    id: "account-rate-limit",
    hooks: {
      before: [
        {
          matcher: (ctx) => Boolean(ctx.path && perAccountRules[ctx.path]),
          handler: createAuthMiddleware(async (ctx) => {
            const rule = perAccountRules[ctx.path];
            const email = (ctx.body as { email?: unknown } | undefined)?.email;
            if (!rule || typeof email !== "string" || !email) return;
            const { count, resetInSeconds } = await store.hit(`account:${ctx.path}:${email.trim().toLowerCase()}`, rule.window);
            if (count > rule.max) {
              throw new APIError(
                "TOO_MANY_REQUESTS",
                { code: "TOO_MANY_REQUESTS", message: "Too many requests for this account" },
                { "X-Retry-After": String(resetInSeconds) },
              );
            }
          }),
        },
      ],
    },
  };
}
