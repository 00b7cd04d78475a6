import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { AnalyticsBatch } from "./analytics-batch.server";

/** Query and fragment are dropped from URLs before storing: they can carry an email or a token. */
function withoutQuery(params: Record<string, unknown>): Record<string, unknown> {
  const stripped = { ...params };
  for (const key of ["page_location", "share_url"]) {
    const value = stripped[key];
    if (typeof value === "string") stripped[key] = value.split(/[?#]/)[0];
  }
  return stripped;
}

export async function storeAnalyticsEvents(db: Kysely<Database>, batch: AnalyticsBatch, now = new Date()): Promise<number> {
  const receivedAt = now.toISOString();
  await db
    .insertInto("analytics_events")
    .values(
      batch.events.map((event) => ({
        id: randomUUID(),
        name: event.name,
        params: JSON.stringify(withoutQuery(event.params)),
        received_at: receivedAt,
      })),
    )
    .execute();
  return batch.events.length;
}
