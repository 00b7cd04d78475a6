import { createHash } from "node:crypto";
import { APIError, createAuthMiddleware } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { endpointsWhere } from "./auth-endpoints";

/**
 * Verification links work once (ASVS 6.4.x): Better Auth's verification token is a signed, stateless JWT that
 * would verify again until it expires, so the first use claims it here (a hash, never the token) and every later
 * use is answered like a broken link. The claim is an insert on a primary key, so two tabs racing on one link
 * get one success between them. Reset tokens are already single-use in Better Auth (a database row it deletes).
 */
export function singleUseLinks(db: Kysely<Database>, lifetimeSeconds: number): BetterAuthPlugin {
  return {
    id: "single-use-links",
    hooks: {
      before: [
        {
          matcher: endpointsWhere((row) => row.singleUseLink),
          handler: createAuthMiddleware(async (ctx) => {
            const token = (ctx.query as { token?: unknown } | undefined)?.token;
            if (typeof token !== "string" || !token) return;
            const now = new Date();
            await db.deleteFrom("used_link_token").where("expires_at", "<", now.toISOString()).execute();
            const claimed = await db
              .insertInto("used_link_token")
              .values({
                token_hash: createHash("sha256").update(token).digest("hex"),
                expires_at: new Date(now.getTime() + lifetimeSeconds * 1000).toISOString(),
              })
              .onConflict((conflict) => conflict.column("token_hash").doNothing())
              .executeTakeFirst();
            if (!claimed.numInsertedOrUpdatedRows) throw new APIError("UNAUTHORIZED", { code: "INVALID_TOKEN", message: "Link already used" });
          }),
        },
      ],
    },
  };
}
