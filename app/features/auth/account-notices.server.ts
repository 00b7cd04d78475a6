import { createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";
import { decodeJwt } from "jose";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { endpointsWhere } from "./auth-endpoints";
import { sendSecurityNotice, type NoticeSite } from "./security-notices.server";

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

const succeeded = (ctx: HookContext) => {
  const returned = ctx.context.returned;
  return !isAPIError(returned) && !(returned instanceof Response && returned.status >= 400);
};

interface EmailChangeClaims {
  email?: string;
  updateTo?: string;
  userId?: string;
  requestType?: string;
}

/** The claims of a verification token, read without checking it (Better Auth checks it; this only tells kinds apart). */
function claimsOf(token: unknown): EmailChangeClaims | null {
  if (typeof token !== "string" || !token) return null;
  try {
    return decodeJwt(token) as EmailChangeClaims;
  } catch {
    return null;
  }
}

/** A verification token that, once opened, moves the account to a new address (Better Auth's email change). */
export const isEmailChangeToken = (token: string) => claimsOf(token)?.requestType === "change-email-verification";

/** The claims of an email-change token (unchecked, as above), or null for any other token. */
export const emailChangeClaims = (token: unknown) => {
  const claims = claimsOf(token);
  return claims?.requestType === "change-email-verification" ? claims : null;
};

/**
 * The security notices Better Auth's own endpoints give rise to:
 * - a changed password (`/change-password`; a password set by the reset link is told by `onPasswordReset`);
 * - a changed email, once the link sent to the new address is opened: the old address is told where the
 *   account went (checked against the user row, so a refused or replayed link tells nobody).
 * The product's own endpoints send theirs where the change happens.
 */
export function accountNotices(db: Kysely<Database>, site: NoticeSite): BetterAuthPlugin {
  return {
    id: "account-notices",
    hooks: {
      after: [
        {
          matcher: endpointsWhere((row) => row.notice === "password-changed"),
          handler: createAuthMiddleware(async (ctx) => {
            if (!succeeded(ctx)) return;
            const user = ctx.context.session?.user ?? (await getSessionFromCtx(ctx))?.user;
            if (user) await sendSecurityNotice(db, site, { kind: "password-changed", to: user.email });
          }),
        },
        {
          matcher: endpointsWhere((row) => row.notice === "email-changed"),
          handler: createAuthMiddleware(async (ctx) => {
            const claims = claimsOf((ctx.query as { token?: unknown } | undefined)?.token);
            if (!succeeded(ctx) || claims?.requestType !== "change-email-verification" || !claims.email || !claims.updateTo || !claims.userId) return;
            const user = await db.selectFrom("user").select(["email", "name"]).where("id", "=", claims.userId).executeTakeFirst();
            if (user?.email !== claims.updateTo) return;
            await sendSecurityNotice(db, site, { kind: "email-changed", to: claims.email, detail: claims.updateTo });
          }),
        },
      ],
    },
  };
}
