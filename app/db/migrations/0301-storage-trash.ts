import type { Kysely } from "kysely";

/**
 * Bytes waiting to be deleted (docs/storage.md): a file's row leaves and its blob key enters this table in one
 * transaction, and the bytes are removed only after that commits. A crash or a failed commit therefore never
 * leaves a row whose bytes are gone; the storage sweeper empties what a crash left here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("storage_trash")
    .addColumn("blob_key", "varchar(100)", (c) => c.primaryKey())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("storage_uploads_owner").on("storage_uploads").column("owner_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("storage_uploads_owner").execute();
  await db.schema.dropTable("storage_trash").execute();
}
