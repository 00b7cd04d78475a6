import { APIError, createAuthMiddleware } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";
import { safeRedirect } from "~/lib/redirect-rule";

/** Every parameter by which a caller tells Better Auth where to send the browser, with Better Auth's refusal code. */
const destinationFields = {
  callbackURL: "INVALID_CALLBACK_URL",
  errorCallbackURL: "INVALID_ERROR_CALLBACK_URL",
  newUserCallbackURL: "INVALID_NEW_USER_CALLBACK_URL",
  redirectTo: "INVALID_REDIRECT_URL",
} as const;

/** The same parameters with each destination replaced by the rule's same-origin path; throws on a refused one. */
function judged(source: unknown, siteUrl: string): Record<string, unknown> | null {
  if (!source || typeof source !== "object") return null;
  const values = source as Record<string, unknown>;
  let changed = false;
  const next = { ...values };
  for (const [field, code] of Object.entries(destinationFields)) {
    const value = values[field];
    if (typeof value !== "string" || value === "") continue;
    const path = safeRedirect(value, siteUrl, "");
    if (!path) throw new APIError("FORBIDDEN", { code, message: "Invalid redirect destination" });
    next[field] = path;
    changed ||= path !== value;
  }
  return changed ? next : null;
}

/**
 * Puts the site's one redirect rule in front of Better Auth's own, looser callback checks: a destination in the
 * body or the query that the rule refuses is answered 403 (as Better Auth answers a foreign one), and an
 * accepted one is handed on as the plain same-origin path the rule made of it.
 */
export function redirectRule(siteUrl: string): BetterAuthPlugin {
  return {
    id: "redirect-rule",
    hooks: {
      before: [
        {
          matcher: () => true,
          handler: createAuthMiddleware(async (ctx) => {
            const body = judged(ctx.body, siteUrl);
            const query = judged(ctx.query, siteUrl);
            if (!body && !query) return;
            return { context: { ...(body ? { body } : {}), ...(query ? { query } : {}) } };
          }),
        },
      ],
    },
  };
}
