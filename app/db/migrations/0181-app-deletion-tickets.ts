import type { Kysely } from "kysely";

// Deletion started in the app (app/features/account/app-deletion.server.ts): the SHA-256 of each short-lived
// ticket the app opens the deletion page with, whose account it names, and until when it holds.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("app_deletion_ticket")
    .addColumn("ticket_hash", "varchar(64)", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("expires_at", "varchar(30)", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("app_deletion_ticket").execute();
}
