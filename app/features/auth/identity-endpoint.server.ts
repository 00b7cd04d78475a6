import { createAuthEndpoint, getSessionFromCtx } from "better-auth/api";
import type { AuthContext, BetterAuthPlugin, Session, User } from "better-auth";
import type { IdentityRecord } from "./identity-record";
import { authPaths } from "./auth-endpoints";
import { verifiedNumber } from "./phone-number";

const toIso = (value: Date | string) => new Date(value).toISOString();

type InternalAdapter = AuthContext["internalAdapter"];
/** A session as Better Auth's lookup answers it (getSessionFromCtx, auth.api.getSession). */
export interface SignedInSession {
  user: User & Record<string, unknown>;
  session: Session;
}

/** The user's own fields of the identity record: all of it that needs no query beyond the session's. */
export function userFieldsOf(user: SignedInSession["user"]): Omit<IdentityRecord, "providerData" | "metadata"> {
  const isAnonymous = Boolean(user.isAnonymous);
  return {
    uid: user.id,
    email: isAnonymous ? null : user.email,
    emailVerified: user.emailVerified,
    displayName: user.name || null,
    photoURL: user.image ?? null,
    phoneNumber: verifiedNumber(user),
    tenantId: null,
    isAnonymous,
  };
}

/** The original §3 identity record of a signed-in session: what `/me` answers, and what loaders read in-process. */
export async function identityRecordOf(adapter: InternalAdapter, { user, session }: SignedInSession): Promise<IdentityRecord> {
  const accounts = await adapter.findAccounts(user.id);
  const sessions = await adapter.listSessions(user.id);
  const lastSignIn = Math.max(...sessions.map((row) => new Date(row.createdAt).getTime()), 0);
  return {
    ...userFieldsOf(user),
    providerData: accounts.map((account) => ({
      providerId: account.providerId === "credential" ? "password" : account.providerId,
      uid: account.providerId === "credential" ? user.email : account.accountId,
    })),
    metadata: {
      creationTime: toIso(user.createdAt),
      lastSignInTime: toIso(lastSignIn ? new Date(lastSignIn) : session.createdAt),
    },
  };
}

/** `GET /api/auth/me`: the signed-in user as the original §3 identity record, or `{ user: null }`. */
export function identityEndpoint(): BetterAuthPlugin {
  return {
    id: "identity-record",
    endpoints: {
      me: createAuthEndpoint(authPaths.me, { method: "GET" }, async (ctx) => {
        const current = await getSessionFromCtx(ctx);
        return ctx.json({ user: current ? await identityRecordOf(ctx.context.internalAdapter, current) : null });
      }),
    },
  };
}
