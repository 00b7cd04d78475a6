import { createAuthEndpoint, getSessionFromCtx } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";
import type { IdentityRecord } from "./identity-record";
import { authPaths } from "./auth-endpoints";
import { verifiedNumber } from "./phone-number";

const toIso = (value: Date | string) => new Date(value).toISOString();

/** `GET /api/auth/me`: the signed-in user as the original §3 identity record, or `{ user: null }`. */
export function identityEndpoint(): BetterAuthPlugin {
  return {
    id: "identity-record",
    endpoints: {
      me: createAuthEndpoint(authPaths.me, { method: "GET" }, async (ctx) => {
        const current = await getSessionFromCtx(ctx);
        if (!current) return ctx.json({ user: null });
        const { user } = current;
        const isAnonymous = Boolean((user as { isAnonymous?: boolean | null }).isAnonymous);
        const accounts = await ctx.context.internalAdapter.findAccounts(user.id);
        const sessions = await ctx.context.internalAdapter.listSessions(user.id);
        const lastSignIn = Math.max(...sessions.map((session) => new Date(session.createdAt).getTime()), 0);
        const record: IdentityRecord = {
          uid: user.id,
          email: isAnonymous ? null : user.email,
          emailVerified: user.emailVerified,
          displayName: user.name || null,
          photoURL: user.image ?? null,
          phoneNumber: verifiedNumber(user),
          tenantId: null,
          isAnonymous,
          providerData: accounts.map((account) => ({
            providerId: account.providerId === "credential" ? "password" : account.providerId,
            uid: account.providerId === "credential" ? user.email : account.accountId,
          })),
          metadata: {
            creationTime: toIso(user.createdAt),
            lastSignInTime: toIso(lastSignIn ? new Date(lastSignIn) : current.session.createdAt),
          },
        };
        return ctx.json({ user: record });
      }),
    },
  };
}
