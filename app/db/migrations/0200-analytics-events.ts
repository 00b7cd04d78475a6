import type { Kysely } from "kysely";

// First-party analytics: one row per event, no visitor id, no IP, no cookie (PRODUCT §8).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("analytics_events")
    .addColumn("id", "varchar(36)", (col) => col.primaryKey())
    .addColumn("name", "varchar(40)", (col) => col.notNull())
    .addColumn("params", "text", (col) => col.notNull())
    .addColumn("received_at", "varchar(30)", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("analytics_events_name_received_at")
    .on("analytics_events")
    .columns(["name", "received_at"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("analytics_events").execute();
}
