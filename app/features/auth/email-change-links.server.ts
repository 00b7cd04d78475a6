import { createHash } from "node:crypto";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { authPaths, endpointsWhere } from "./auth-endpoints";
import { emailChangeClaims } from "./account-notices.server";

/**
 * Email-change links that mean what the parent asked for last (Better Auth's links are stateless JWTs):
 * - only the newest request's link works: asking for X and then for Y leaves X's link dead (the account keeps, per
 *   user, the address it asked for last, in the verification table);
 * - a link to an address another account took meanwhile answers `auth/email-already-in-use`, not 500;
 * - two accounts' links to one address opened at once: the first claims the address for a short while (an insert
 *   on a primary key), the second gets the same clear error instead of meeting the unique key.
 */
const pendingIdentifier = (userId: string) => `email-change:${userId}`;
const linkLifetimeSeconds = 24 * 3600;
/** Long enough for the winning change to commit; the address is then taken for good. */
const addressClaimSeconds = 60;

const addressTaken = () => new APIError("UNPROCESSABLE_ENTITY", { code: "USER_ALREADY_EXISTS", message: "Email already in use" });

export function emailChangeLinks(db: Kysely<Database>): BetterAuthPlugin {
  return {
    id: "email-change-links",
    hooks: {
      before: [
        {
          matcher: endpointsWhere((row) => row.notice === "email-changed"),
          handler: createAuthMiddleware(async (ctx) => {
            const claims = emailChangeClaims((ctx.query as { token?: unknown } | undefined)?.token);
            if (!claims?.userId || !claims.updateTo) return;
            const pending = await ctx.context.internalAdapter.findVerificationValue(pendingIdentifier(claims.userId));
            if (pending?.value !== claims.updateTo) throw new APIError("UNAUTHORIZED", { code: "INVALID_TOKEN", message: "A newer change was asked for" });
            const owner = await ctx.context.internalAdapter.findUserByEmail(claims.updateTo);
            if (owner && owner.user.id !== claims.userId) throw addressTaken();
            const now = new Date();
            await db.deleteFrom("used_link_token").where("expires_at", "<", now.toISOString()).execute();
            const claimed = await db
              .insertInto("used_link_token")
              .values({
                token_hash: createHash("sha256").update(`email-change-target:${claims.updateTo}`).digest("hex"),
                expires_at: new Date(now.getTime() + addressClaimSeconds * 1000).toISOString(),
              })
              .onConflict((conflict) => conflict.column("token_hash").doNothing())
              .executeTakeFirst();
            if (!claimed.numInsertedOrUpdatedRows) throw addressTaken();
          }),
        },
      ],
      after: [
        {
          matcher: endpointsWhere((row) => row.path === authPaths.changeEmail),
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            if (isAPIError(returned) || (returned instanceof Response && returned.status >= 400)) return;
            const newEmail = (ctx.body as { newEmail?: unknown } | undefined)?.newEmail;
            const user = ctx.context.session?.user ?? (await getSessionFromCtx(ctx))?.user;
            if (typeof newEmail !== "string" || !user) return;
            const identifier = pendingIdentifier(user.id);
            await ctx.context.internalAdapter.deleteVerificationByIdentifier(identifier);
            await ctx.context.internalAdapter.createVerificationValue({
              identifier,
              value: newEmail.trim().toLowerCase(),
              expiresAt: new Date(Date.now() + linkLifetimeSeconds * 1000),
            });
          }),
        },
      ],
    },
  };
}
