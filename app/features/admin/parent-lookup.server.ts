import { sql } from "kysely";
import type { DatabaseHandle } from "~/db/connection.server";
import { deviceLabel } from "~/features/auth/index.server";
import { accountName, displayPhoneNumber, givenEmail } from "~/features/auth";
import { securityRecordOf } from "~/features/security-record/security-record.server";
import { eventLabel } from "~/features/security-record/event-labels";
import { familyForApp } from "~/features/family/family-claims.server";
import { childDevicesOf } from "~/features/family/family-devices.server";
import type { FamilyFacts, ParentFile, ParentSummary } from "./console-types";

// The operator console's reading side: find a parent, and everything support needs to see about one. Never a
// password hash, a session token, a mail's body (it holds links) or a two-step secret.

const iso = (value: Date | string | null | undefined) => (value instanceof Date ? value.toISOString() : value ? new Date(value).toISOString() : "");
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const resultLimit = 20;
const methodNames: Record<string, string> = { credential: "密碼", google: "Google", facebook: "Facebook", line: "LINE", apple: "Apple", dev: "開發用登入" };

type UserRow = {
  id: string;
  email: string;
  phoneNumber?: string | null;
  name: string;
  emailVerified: boolean | number;
  isAnonymous: boolean | number | null;
  role: string;
  createdAt: Date | string;
  lockedAt?: string | null;
};

function summary(row: UserRow): ParentSummary {
  const guest = Boolean(row.isAnonymous);
  return {
    id: row.id,
    email: row.email,
    label: accountName(row.email, row.phoneNumber) || (guest ? "訪客" : row.id),
    hasEmail: givenEmail(row.email) !== null,
    name: row.name,
    verified: Boolean(row.emailVerified),
    guest,
    locked: Boolean(row.lockedAt),
    role: row.role,
    createdAt: iso(row.createdAt),
  };
}

/** Parents whose email, phone number or uid is the query, or whose email or name holds it; exact matches first. */
export async function findParents({ db }: DatabaseHandle, query: string): Promise<ParentSummary[]> {
  const text = query.trim();
  if (!text) return [];
  const pattern = likePattern(text);
  const rows = await db
    .selectFrom("user")
    .select(["id", "email", "phoneNumber", "name", "emailVerified", "isAnonymous", "role", "createdAt", "lockedAt"])
    .where((eb) =>
      eb.or([
        eb("email", "=", text.toLowerCase()),
        eb("id", "=", text),
        // A phone number as typed (0912 345 678 or +886…) against the stored E.164 form.
        eb("phoneNumber", "=", text.replace(/[\s-]/g, "").replace(/^0(?=9)/, "+886")),
        eb(sql`lower(${sql.ref("email")})`, "like", sql`${pattern} escape '\\'`),
        eb(sql`lower(${sql.ref("name")})`, "like", sql`${pattern} escape '\\'`),
      ]),
    )
    .orderBy(sql`case when ${sql.ref("email")} = ${text.toLowerCase()} or ${sql.ref("id")} = ${text} then 0 else 1 end`)
    .orderBy("createdAt", "desc")
    .limit(resultLimit)
    .execute();
  return rows.map(summary);
}

const mailStatus = (mail: { sent_at: string | null; failed_at: string | null; attempts: number; last_error: string | null }) =>
  mail.sent_at
    ? "已交給郵件伺服器"
    : mail.failed_at
      ? `寄送失敗：${mail.last_error ?? "原因不明"}`
      : `等待寄出（已試 ${mail.attempts} 次${mail.last_error ? `，上次錯誤：${mail.last_error}` : ""}）`;

async function familyFacts({ db }: DatabaseHandle, userId: string): Promise<FamilyFacts | null> {
  const family = await familyForApp(db, userId);
  if (!family) return null;
  const tablets = await childDevicesOf(db, family.id);
  return {
    name: family.name,
    role: family.role,
    parents: family.parents.map((parent) => ({ ...parent, email: parent.email ?? "" })),
    children: family.children.map((child) => child.name),
    tablets: tablets.map(({ childName, appName, approvedBy, joinedAt }) => ({ childName, appName, approvedBy, joinedAt })),
  };
}

/** One parent's file for the console, or null when the uid names no account. */
export async function parentFile(database: DatabaseHandle, userId: string): Promise<Omit<ParentFile, "state" | "operator"> | null> {
  const { db } = database;
  const user = await db.selectFrom("user").selectAll().where("id", "=", userId).executeTakeFirst();
  if (!user) return null;
  const [accounts, passkeys, sessions, mail, family, record] = await Promise.all([
    db.selectFrom("account").select(["providerId"]).where("userId", "=", userId).orderBy("createdAt").execute(),
    db.selectFrom("passkey").select(["name", "created_at"]).where("user_id", "=", userId).orderBy("created_at").execute(),
    db.selectFrom("session").select(["userAgent", "ipAddress", "createdAt", "updatedAt"]).where("userId", "=", userId).orderBy("updatedAt", "desc").execute(),
    db.selectFrom("mail_outbox").select(["subject", "created_at", "sent_at", "failed_at", "attempts", "last_error"]).where("recipient", "=", user.email).orderBy("created_at", "desc").limit(10).execute(),
    familyFacts(database, userId),
    securityRecordOf(database, userId, { since: new Date(0), limit: 200 }),
  ]);
  // App sign-ins are session rows named after their app (app-sessions.server.ts).
  const isApp = (agent: string | null) => Boolean(agent?.endsWith("（App）"));
  return {
    parent: { ...summary(user), lockedAt: user.lockedAt ?? null, twoStep: Boolean((user as { twoFactorEnabled?: unknown }).twoFactorEnabled) },
    // The phone number is a way in of its own, kept on the user (ways-in/phone/phone.server.ts), not an `account` row.
    waysIn: [
      ...accounts.map((account) => methodNames[account.providerId] ?? account.providerId),
      ...(user.phoneNumber && user.phoneNumberVerified ? [`手機號碼 ${displayPhoneNumber(user.phoneNumber)}`] : []),
    ],
    passkeys: passkeys.map((key) => ({ name: key.name, createdAt: key.created_at })),
    devices: sessions
      .filter((session) => !isApp(session.userAgent))
      .map((session) => ({ device: deviceLabel(session.userAgent), ip: session.ipAddress, createdAt: iso(session.createdAt), lastActiveAt: iso(session.updatedAt) })),
    apps: sessions
      .filter((session) => isApp(session.userAgent))
      .map((session) => ({ app: (session.userAgent ?? "").replace("（App）", ""), ip: session.ipAddress, createdAt: iso(session.createdAt), lastActiveAt: iso(session.updatedAt) })),
    mail: mail.map((entry) => ({ subject: entry.subject, queuedAt: entry.created_at, status: mailStatus(entry) })),
    family,
    record: record.map((row) => ({
      seq: row.seq,
      at: row.at,
      what: eventLabel(row.event),
      refused: row.outcome !== "success",
      code: row.code,
      ip: row.ip,
      device: row.userAgent ? deviceLabel(row.userAgent) : null,
      byOperator: Boolean(row.actorId && row.actorId !== userId),
      reason: typeof row.detail?.reason === "string" ? row.detail.reason : null,
    })),
  };
}
