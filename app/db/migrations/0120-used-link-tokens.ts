import type { Kysely } from "kysely";

// Emailed links that have been used once (verification): a hash of the token, kept until the link would expire.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("used_link_token")
    .addColumn("token_hash", "varchar(64)", (c) => c.primaryKey())
    .addColumn("expires_at", "varchar(30)", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("used_link_token").execute();
}
