import { randomBytes } from "node:crypto";
import type { DatabaseHandle } from "~/db/connection.server";
import { sessionIsActive } from "~/features/auth/auth-service.server";
import { recordSecurityEvent } from "~/features/security-record/security-record.server";

/**
 * Each app sign-in (an OpenID grant) owns a row of the sign-in layer's `session` table, with the grant's id as its
 * id. So every rule that ends sessions ends the app's tokens too, with no second list to keep in step: the app's
 * own sign-out, a password change or reset that signs out other devices, ending the device on /account/security,
 * `npm run user:sign-out`, and account deletion (the rows cascade). The grant lives only while its row does.
 */
export interface AppSessions {
  start(input: { grantId: string; userId: string; appName: string; ipAddress: string | null; lifetimeSeconds: number }): Promise<void>;
  isAlive(grantId: string): Promise<boolean>;
  end(grantId: string): Promise<void>;
}

export function appSessions(database: DatabaseHandle): AppSessions {
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
          userAgent: `${appName}（App）`,
        })
        .onConflict((conflict) => conflict.column("id").doNothing())
        .executeTakeFirst();
      // A new app sign-in (not the same grant seen again) is a security event of the account.
      if (Number(started.numInsertedOrUpdatedRows ?? 0) > 0) {
        await recordSecurityEvent(database, { event: "app-grant", userId, ip: ipAddress, detail: { app: appName } });
      }
    },
    isAlive: (grantId) => sessionIsActive(database, grantId),
    async end(grantId) {
      await db.deleteFrom("session").where("id", "=", grantId).execute();
    },
  };
}
