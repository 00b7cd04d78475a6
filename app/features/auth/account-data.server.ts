import { createAuthEndpoint, sessionMiddleware } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { AccountData } from "./auth-client";
import { deviceLabel } from "./device-name";
import { networkPlace } from "./network-place.server";
import { exportUserData } from "./user-data-hooks.server";
import { authPaths } from "./auth-endpoints";
import { givenEmail } from "./phone-number";

const toIso = (value: Date | string) => new Date(value).toISOString();

/**
 * `GET /account-data` → `AccountData`: the signed-in account's profile (its phone number too), sign-in methods
 * (never a password hash or a provider's tokens), passkeys (never a key), sessions (never a token) and every feature's rows through the user-data registry.
 * Only the account itself can ask, and it gets only its own data.
 */
export function accountData(db: Kysely<Database>): BetterAuthPlugin {
  return {
    id: "account-data",
    endpoints: {
      accountData: createAuthEndpoint(authPaths.accountData, { method: "GET", use: [sessionMiddleware] }, async (ctx) => {
        const { user, session } = ctx.context.session;
        const accounts = await ctx.context.internalAdapter.findAccounts(user.id);
        const sessions = await ctx.context.internalAdapter.listSessions(user.id, { onlyActiveSessions: true });
        const passkeys = await db.selectFrom("passkey").select(["name", "backed_up", "created_at", "last_used_at"]).where("user_id", "=", user.id).orderBy("created_at").execute();
        const { phoneNumber, phoneNumberVerified } = user as { phoneNumber?: string | null; phoneNumberVerified?: unknown };
        const answer: AccountData = {
          exportedAt: new Date().toISOString(),
          profile: {
            id: user.id,
            displayName: user.name,
            email: givenEmail(user.email),
            emailVerified: user.emailVerified,
            phoneNumber: phoneNumber && phoneNumberVerified ? phoneNumber : null,
            photoURL: user.image ?? null,
            role: (user as { role?: string }).role ?? "user",
            createdAt: toIso(user.createdAt),
          },
          signInMethods: accounts.map((account) => ({
            provider: (account.providerId === "credential" ? "password" : account.providerId) as AccountData["signInMethods"][number]["provider"],
            linkedAt: toIso(account.createdAt),
          })),
          passkeys: passkeys.map((key) => ({
            name: key.name,
            synced: Boolean(key.backed_up),
            createdAt: toIso(key.created_at),
            lastUsedAt: key.last_used_at ? toIso(key.last_used_at) : null,
          })),
          sessions: sessions.map((row) => ({
            device: deviceLabel(row.userAgent),
            place: networkPlace(row.ipAddress),
            ipAddress: row.ipAddress ?? null,
            userAgent: row.userAgent ?? null,
            createdAt: toIso(row.createdAt),
            lastActiveAt: toIso(row.updatedAt),
            current: row.id === session.id,
          })),
          features: await exportUserData(db, user.id),
        };
        return ctx.json(answer);
      }),
    },
  };
}
