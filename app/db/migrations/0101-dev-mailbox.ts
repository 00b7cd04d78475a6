import type { Kysely } from "kysely";

// The development mailbox: every email the site would have sent, when no SMTP server is configured.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("dev_mail")
    .addColumn("id", "varchar(40)", (c) => c.primaryKey())
    .addColumn("recipient", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("html", "text", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("dev_mail_recipient_idx").on("dev_mail").columns(["recipient", "created_at"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("dev_mail").execute();
}
