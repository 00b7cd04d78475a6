import { z } from "zod";
import { readCappedBody } from "~/services/capped-body.server";
import { apiError, guardedEndpoint } from "~/services/request-guard.server";
import type { DatabaseHandle } from "~/db/connection.server";
import { getAuthService, type AuthService } from "./auth-service.server";
import { appleKeys, isPrivateRelayAddress, verifyAppleJwt } from "./apple.server";
import { recordAuditEvent } from "./auth-logging.server";
import { deleteUserData } from "./user-data-hooks.server";

/**
 * POST /api/apple/notifications: Apple's server-to-server notifications (the address entered for the Services ID
 * in Apple's developer account). The body is `{ "payload": "<JWT>" }`, signed by Apple with the keys at
 * /auth/keys; its `events` claim says what happened to the person's Apple sign-in:
 * - `consent-revoked`: they stopped using Sign in with Apple for the site. The Apple link goes and every session
 *   of the account ends; other ways in stay (signing in with Apple again links it again).
 * - `account-delete`: their Apple Account is gone. The Apple link goes and the sessions end. An account left with
 *   no way in (no other provider, password, passkey or phone, and only Apple's relay address, which dies with the
 *   Apple Account, for an emailed link) could never be signed in to again, so it is deleted with all its data.
 * - `email-disabled` / `email-enabled`: the relay address stopped or started forwarding; noted in the account's
 *   security record (mail to it is dropped by Apple meanwhile).
 * A forged or expired payload is refused (400) and changes nothing; an event about an unknown person is
 * accepted (200), since Apple retries what is not.
 */
const maxBytes = 16 * 1024;

const body = z.object({ payload: z.string().min(1).max(8_000) });
const event = z.object({
  type: z.enum(["consent-revoked", "account-delete", "email-disabled", "email-enabled"]),
  sub: z.string().min(1),
});
/** Apple sends `events` as a JSON string inside the JWT. */
const events = z.union([z.string().transform((text, ctx) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    ctx.addIssue({ code: "custom", message: "events is not JSON" });
    return z.NEVER;
  }
}), z.record(z.string(), z.unknown())]).pipe(event);

const refused = () => apiError(400, "apple/invalid-notification", "這不是 Apple 簽署的有效通知。");

/** The endpoint on one sign-in layer (the site's, or a test server's). */
export const appleNotificationEndpoint = (service: Pick<AuthService, "env" | "database">) => guardedEndpoint({ methods: ["POST"] }, async (request) => {
  const keys = appleKeys(service.env);
  if (!keys) return apiError(404, "apple/not-configured", "這個網站沒有開啟 Apple 登入。");
  const raw = await readCappedBody(request, maxBytes);
  if (raw === null) return apiError(413, "payload-too-large", "傳送的資料過大。");
  let parsed: z.infer<typeof body>;
  try {
    parsed = body.parse(JSON.parse(raw.toString("utf8")));
  } catch {
    return refused();
  }
  const claims = await verifyAppleJwt(keys, parsed.payload).catch(() => null);
  const change = claims ? events.safeParse(claims.events) : null;
  if (!change?.success) return refused();
  await applyAppleEvent(service.database, change.data);
  return new Response(null, { status: 200 });
});

export const handleAppleNotification = (request: Request) => appleNotificationEndpoint(getAuthService())(request);

/** What one verified event changes. */
async function applyAppleEvent(database: DatabaseHandle, change: z.infer<typeof event>): Promise<void> {
  const { db } = database;
  const link = await db.selectFrom("account").select(["id", "userId"]).where("providerId", "=", "apple").where("accountId", "=", change.sub).executeTakeFirst();
  if (!link) return;
  const userId = link.userId;
  if (change.type === "email-disabled" || change.type === "email-enabled") {
    await recordAuditEvent(database, { event: `apple-${change.type}`, userId });
    return;
  }
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("account").where("id", "=", link.id).execute();
    await trx.deleteFrom("session").where("userId", "=", userId).execute();
  });
  const event = change.type === "consent-revoked" ? "apple-consent-revoked" : "apple-account-deleted";
  await recordAuditEvent(database, { event, userId });
  if (change.type !== "account-delete") return;
  const user = await db.selectFrom("user").select(["email", "phoneNumber"]).where("id", "=", userId).executeTakeFirst();
  const otherAccount = await db.selectFrom("account").select("id").where("userId", "=", userId).executeTakeFirst();
  const passkey = await db.selectFrom("passkey").select("id").where("user_id", "=", userId).executeTakeFirst();
  if (user && isPrivateRelayAddress(user.email) && !user.phoneNumber && !otherAccount && !passkey) await deleteUserData(db, userId);
}
