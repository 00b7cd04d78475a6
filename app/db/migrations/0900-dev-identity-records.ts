import type { Kysely } from "kysely";

/**
 * The development identity provider's records (server/dev-identity-provider.ts): its interactions, sessions, codes
 * and grants, and its signing key, shared by every worker process and instance instead of kept in one process's
 * memory (a pop-up's steps may each reach another worker).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("dev_identity_record")
    .addColumn("kind", "varchar(40)", (c) => c.notNull())
    .addColumn("id", "varchar(255)", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("grant_id", "varchar(255)")
    .addColumn("uid", "varchar(255)")
    // Milliseconds since 1970 (bigint on PostgreSQL), so expiry compares as a number on both databases.
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("dev_identity_record_pk", ["kind", "id"])
    .execute();
  await db.schema.createIndex("dev_identity_record_uid").on("dev_identity_record").columns(["kind", "uid"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("dev_identity_record").execute();
}
