import type { Kysely } from "kysely";

// The mail outbox: every email is a row written with the change that asks for it, then delivered by the sender
// (app/features/mail/outbox.server.ts). Times are ISO-8601 text on both databases, so they compare as text.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("mail_outbox")
    .addColumn("id", "varchar(40)", (c) => c.primaryKey())
    .addColumn("recipient", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("html", "text", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    // When the sender may (next) take the row: now for a new row, later after a failure or while one holds it.
    .addColumn("next_attempt_at", "varchar(30)", (c) => c.notNull())
    .addColumn("sent_at", "varchar(30)")
    .addColumn("failed_at", "varchar(30)")
    .addColumn("last_error", "text")
    .execute();
  await db.schema.createIndex("mail_outbox_due_idx").on("mail_outbox").columns(["sent_at", "failed_at", "next_attempt_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("mail_outbox").execute();
}
