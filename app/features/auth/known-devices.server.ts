import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createAuthMiddleware, isAPIError } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";
import type { DatabaseHandle } from "~/db/connection.server";
import { deviceLabel } from "./device-name";
import { verifiedNumber } from "./phone-number";
import { authEndpointFor, endpointsWhere } from "./auth-endpoints";
import { networkPlace } from "./network-place.server";
import { sendSecurityNotice, type NoticeSite } from "./security-notices.server";
import { recordWithAuditEntry } from "./auth-logging.server";

/**
 * Sign-in from a new device (ASVS 6.3.5, 7.2.x): every browser that signs in gets a long-lived random cookie, and
 * the account keeps a hash of it (`known_device`). A sign-in from a browser the account has not seen mails a
 * security notice naming the device, its network place if known, and its address. The browser an account is
 * created in is its first device: no notice for that one. The cookie says nothing about who signed in, is
 * HttpOnly, and a cleared cookie only means one more notice.
 * A device id counts only as the server issued it for that account: each entry of the cookie is `id.mac`, the
 * MAC over (account, id) under the site's secret. An id a client (or a cookie planted from a sibling host) chose,
 * or one issued to another account, is ignored and a new one issued, so it can never silence the notice. One
 * browser keeps an entry per account that signs in on it (a family's shared tablet), the newest first.
 */
const cookieName = "known_device";
const cookieMaxAge = 400 * 24 * 3600;
const entryShape = /^([\w-]{32})\.([\w-]{43})$/;
const entriesKept = 5;

const hashOf = (value: string) => createHash("sha256").update(value).digest("hex");
const macOf = (secret: string, userId: string, deviceId: string) => createHmac("sha256", secret).update(`known-device:${userId}:${deviceId}`).digest("base64url");

/** The device id this browser holds for `userId`, if the server issued it for that account; and the other entries. */
function deviceIdFor(presented: string | null | undefined, secret: string, userId: string): { deviceId?: string; others: string[] } {
  const entries = (presented ?? "").split("~").filter((entry) => entryShape.test(entry));
  for (const entry of entries) {
    const [, id = "", mac = ""] = entryShape.exec(entry) ?? [];
    const expected = Buffer.from(macOf(secret, userId, id));
    if (expected.length === mac.length && timingSafeEqual(expected, Buffer.from(mac))) {
      return { deviceId: id, others: entries.filter((other) => other !== entry) };
    }
  }
  return { others: entries };
}

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
            const { user, session } = signedIn;
            const cookie = ctx.context.createAuthCookie(cookieName, { maxAge: cookieMaxAge });
            const held = deviceIdFor(ctx.getCookie(cookie.name), ctx.context.secret, user.id);
            const deviceId = held.deviceId ?? randomBytes(24).toString("base64url");
            const entry = `${deviceId}.${macOf(ctx.context.secret, user.id, deviceId)}`;
            ctx.setCookie(cookie.name, [entry, ...held.others].slice(0, entriesKept).join("~"), cookie.attributes);

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
            if (authEndpointFor(ctx)?.startsAccount || known.length === 0) return;
            const place = networkPlace(session.ipAddress);
            const detail = [deviceLabel(session.userAgent), place, session.ipAddress ? `IP 位址 ${session.ipAddress}` : null].filter(Boolean).join("，");
            // The user row carries the phone way in's columns, when it is on: the notice needs no read of its own.
            await sendSecurityNotice(db, site, { kind: "new-device", to: user.email, detail, phone: "phoneNumber" in user ? verifiedNumber(user) : undefined });
            // Written with the sign-in's own audit event, in one append.
            await recordWithAuditEntry(ctx, database, { event: "new-device", userId: user.id, ip: session.ipAddress, userAgent: session.userAgent });
          }),
        },
      ],
    },
  };
}
