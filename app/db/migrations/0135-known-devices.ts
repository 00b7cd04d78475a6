import type { Kysely } from "kysely";

// Browsers an account has signed in from (a hash of a long-lived random cookie), so a sign-in from any other one
// mails a new-device notice. Rows go with the account.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("known_device")
    .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("device_hash", "varchar(64)", (c) => c.notNull())
    .addColumn("first_seen_at", "varchar(30)", (c) => c.notNull())
    .addColumn("last_seen_at", "varchar(30)", (c) => c.notNull())
    .addPrimaryKeyConstraint("known_device_pk", ["user_id", "device_hash"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("known_device").execute();
}
