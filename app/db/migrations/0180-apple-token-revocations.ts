import type { Kysely } from "kysely";

// Apple's tokens still to be revoked (app/features/auth/apple-revocations.server.ts): written in the account
// deletion's transaction, sent to Apple's /auth/revoke afterwards and retried with back-off until Apple takes it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("apple_token_revocation")
    .addColumn("id", "varchar(40)", (c) => c.primaryKey())
    .addColumn("token", "text", (c) => c.notNull())
    // `refresh_token` or `access_token`, as Apple's token_type_hint.
    .addColumn("token_type", "varchar(20)", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "varchar(30)", (c) => c.notNull())
    .addColumn("last_error", "text")
    .execute();
  await db.schema.createIndex("apple_token_revocation_due_idx").on("apple_token_revocation").column("next_attempt_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("apple_token_revocation").execute();
}
