import type { DatabaseHandle } from "~/db/connection.server";
import { deviceLabel } from "~/features/auth/index.server";
import { securityRecordOf } from "~/features/security-record/security-record.server";
import { eventLabel } from "~/features/security-record/event-labels";
import type { ActivityItem } from "./account-security";

/** How far back 帳號安全 shows the account's own record, and at most how many rows. */
const activityDays = 90;
const activityLimit = 100;
// A support person opening the account is not something the parent did; it stays in the operator's record.
const notShown = new Set(["admin-lookup"]);

/** The account's own security record of the last 90 days, newest first, in plain words. */
export async function recentActivity(database: DatabaseHandle, userId: string): Promise<ActivityItem[]> {
  const since = new Date(Date.now() - activityDays * 86_400_000);
  const rows = await securityRecordOf(database, userId, { since, limit: activityLimit });
  return rows
    .filter((row) => !notShown.has(row.event))
    .map((row) => ({
      id: row.seq,
      at: row.at,
      what: eventLabel(row.event),
      refused: row.outcome !== "success",
      device: row.userAgent ? deviceLabel(row.userAgent) : null,
      ip: row.ip,
    }));
}
