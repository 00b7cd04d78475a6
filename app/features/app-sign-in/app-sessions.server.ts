import { randomBytes } from "node:crypto";
import type { Grant } from "oidc-provider";
import type { DatabaseHandle } from "~/db/connection.server";
import { appSessionAgent } from "~/features/auth/index.server";
import { recordSecurityEvent } from "~/features/security-record/security-record.server";

/**
 * Each app sign-in (an OpenID grant) owns a row of the sign-in layer's `session` table, with the grant's id as its
 * id. So every rule that ends sessions ends the app's tokens too, with no second list to keep in step: the app's
 * own sign-out, a password change or reset that signs out other devices, ending the device on /account/security,
 * `npm run user:sign-out`, and account deletion (the rows cascade). The grant lives only while its row does.
 */
export interface AppSessions {
  start(input: { grantId: string; userId: string; appName: string; ipAddress: string | null; lifetimeSeconds: number }): Promise<void>;
  /** Whether a grant's session row (read with the grant, provider-records.server.ts) still holds: absent is ended. */
  holds(row: { expiresAt: Date | string | null; createdAt: Date | string | null } | undefined): boolean;
  end(grantId: string): Promise<void>;
}

/**
 * `absoluteDays`: SESSION_ABSOLUTE_DAYS, read at every check, so lowering it ends app sign-ins older than the new
 * limit as it ends the site's sessions (their row's `expiresAt` was set under the old one).
 */
export function appSessions(database: DatabaseHandle, absoluteDays: number): AppSessions {
  const { db } = database;
  // Better Auth stores dates as Date on PostgreSQL and ISO text on SQLite; rows written here match what it reads.
  const stamp = (date: Date) => (database.dialect === "postgres" ? date : date.toISOString());
  return {
    async start({ grantId, userId, appName, ipAddress, lifetimeSeconds }) {
      const now = new Date();
      const started = await db
        .insertInto("session")
        .values({
          id: grantId,
          // Never sent anywhere: the app holds OAuth tokens, not this session's cookie.
          token: randomBytes(32).toString("base64url"),
          userId,
          expiresAt: stamp(new Date(now.getTime() + lifetimeSeconds * 1000)),
          createdAt: stamp(now),
          updatedAt: stamp(now),
          ipAddress,
          // What the device list on /account/security shows for it.
          userAgent: appSessionAgent(appName),
        })
        .onConflict((conflict) => conflict.column("id").doNothing())
        .executeTakeFirst();
      // A new app sign-in (not the same grant seen again) is a security event of the account.
      if (Number(started.numInsertedOrUpdatedRows ?? 0) > 0) {
        await recordSecurityEvent(database, { event: "app-grant", userId, ip: ipAddress, detail: { app: appName } });
      }
    },
    holds(row) {
      if (!row?.expiresAt || !row.createdAt) return false;
      const now = Date.now();
      return new Date(row.expiresAt).getTime() > now && new Date(row.createdAt).getTime() + absoluteDays * 86_400_000 > now;
    },
    async end(grantId) {
      await db.deleteFrom("session").where("id", "=", grantId).execute();
    },
  };
}

/**
 * Saves a new grant after its session row exists: a grant without its row is one whose sign-in ended, and the
 * back-channel sweep (backchannel-logout.server.ts) settles it.
 */
export async function startGrantSession(grant: Grant, startSession: () => Promise<void>): Promise<string> {
  grant.jti ||= grant.generateTokenId();
  await startSession();
  return grant.save();
}
