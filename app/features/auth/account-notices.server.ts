import { createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { sendSecurityNotice, type NoticeSite } from "./security-notices.server";

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

const succeeded = (ctx: HookContext) => {
  const returned = ctx.context.returned;
  return !isAPIError(returned) && !(returned instanceof Response && returned.status >= 400);
};

/**
 * The security notices Better Auth's own endpoints give rise to: a changed password. (A password set by the
 * reset link is told by `onPasswordReset` in auth.server.ts; the product's own endpoints send theirs where the
 * change happens.)
 */
export function accountNotices(db: Kysely<Database>, site: NoticeSite): BetterAuthPlugin {
  return {
    id: "account-notices",
    hooks: {
      after: [
        {
          matcher: (ctx) => ctx.path === "/change-password",
          handler: createAuthMiddleware(async (ctx) => {
            if (!succeeded(ctx)) return;
            const user = ctx.context.session?.user ?? (await getSessionFromCtx(ctx))?.user;
            if (user) await sendSecurityNotice(db, site, { kind: "password-changed", to: user.email, name: user.name });
          }),
        },
      ],
    },
  };
}
