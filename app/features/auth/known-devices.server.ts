import { createHash, randomBytes } from "node:crypto";
import { createAuthMiddleware, isAPIError } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";
import type { DatabaseHandle } from "~/db/connection.server";
import { deviceLabel } from "./device-name";
import { authEndpoint, endpointsWhere } from "./auth-endpoints";
import { networkPlace } from "./network-place.server";
import { sendSecurityNotice, type NoticeSite } from "./security-notices.server";
import { recordAuditEvent } from "./auth-logging.server";

/**
 * Sign-in from a new device (ASVS 6.3.5, 7.2.x): every browser that signs in gets a long-lived random cookie, and
 * the account keeps a hash of it (`known_device`). A sign-in from a browser the account has not seen mails a
 * security notice naming the device, its network place if known, and its address. The browser an account is
 * created in is its first device: no notice for that one. The cookie says nothing about who signed in, is
 * HttpOnly, and a cleared cookie only means one more notice.
 */
const cookieName = "known_device";
const cookieMaxAge = 400 * 24 * 3600;
const cookieValue = /^[\w-]{32}$/;

const hashOf = (value: string) => createHash("sha256").update(value).digest("hex");

export function knownDevices(database: DatabaseHandle, site: NoticeSite): BetterAuthPlugin {
  const { db } = database;
  return {
    id: "known-devices",
    hooks: {
      after: [
        {
          // Every way in the endpoint table knows of, today's and tomorrow's.
          matcher: endpointsWhere((row) => row.session === "creates"),
          handler: createAuthMiddleware(async (ctx) => {
            const signedIn = ctx.context.newSession;
            if (!signedIn || isAPIError(ctx.context.returned) || (signedIn.user as { isAnonymous?: boolean | null }).isAnonymous) return;
            const cookie = ctx.context.createAuthCookie(cookieName, { maxAge: cookieMaxAge });
            const presented = ctx.getCookie(cookie.name);
            const deviceId = presented && cookieValue.test(presented) ? presented : randomBytes(24).toString("base64url");
            ctx.setCookie(cookie.name, deviceId, cookie.attributes);

            const { user, session } = signedIn;
            const hash = hashOf(deviceId);
            const now = new Date().toISOString();
            const known = await db.selectFrom("known_device").select("device_hash").where("user_id", "=", user.id).execute();
            if (known.some((row) => row.device_hash === hash)) {
              await db.updateTable("known_device").set({ last_seen_at: now }).where("user_id", "=", user.id).where("device_hash", "=", hash).execute();
              return;
            }
            await db
              .insertInto("known_device")
              .values({ user_id: user.id, device_hash: hash, first_seen_at: now, last_seen_at: now })
              .onConflict((conflict) => conflict.columns(["user_id", "device_hash"]).doNothing())
              .execute();
            // Where an account begins (its row's `startsAccount`) nobody is told; every other way in tells.
            if (authEndpoint(ctx.path)?.startsAccount || known.length === 0) return;
            const place = networkPlace(session.ipAddress);
            const detail = [deviceLabel(session.userAgent), place, session.ipAddress ? `IP 位址 ${session.ipAddress}` : null].filter(Boolean).join("，");
            await sendSecurityNotice(db, site, { kind: "new-device", to: user.email, detail });
            await recordAuditEvent(database, { event: "new-device", userId: user.id, ip: session.ipAddress, userAgent: session.userAgent });
          }),
        },
      ],
    },
  };
}
