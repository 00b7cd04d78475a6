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
 * `GET /account-data` → `AccountData`: the signed-in account's profile, sign-in methods (never a password hash
 * or a provider's tokens), sessions (never a token) and every feature's rows through the user-data registry.
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
        const answer: AccountData = {
          exportedAt: new Date().toISOString(),
          profile: {
            id: user.id,
            displayName: user.name,
            email: givenEmail(user.email),
            emailVerified: user.emailVerified,
            photoURL: user.image ?? null,
            role: (user as { role?: string }).role ?? "user",
            createdAt: toIso(user.createdAt),
          },
          signInMethods: accounts.map((account) => ({
            provider: (account.providerId === "credential" ? "password" : account.providerId) as AccountData["signInMethods"][number]["provider"],
            linkedAt: toIso(account.createdAt),
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
