import { PostgresAdapter, type Kysely } from "kysely";

/**
 * File storage (docs/storage.md): one row per stored object, keyed by bucket and path, pointing at its bytes in
 * the blob driver (local disk or S3) under a key of its own, so a replace or a move never touches the bytes in
 * place; the sessions of resumable uploads; and Better Auth's JWT plugin keys (`jwks`), whose short-lived
 * tokens identify storage callers (columns as Better Auth's generator emits them).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = postgres ? "timestamptz" : "date";

  await db.schema
    .createTable("storage_objects")
    .addColumn("bucket", "varchar(63)", (c) => c.notNull())
    .addColumn("path", "varchar(1024)", (c) => c.notNull())
    .addColumn("owner_id", "text")
    .addColumn("blob_key", "varchar(100)", (c) => c.notNull())
    .addColumn("size", "bigint", (c) => c.notNull())
    .addColumn("content_type", "varchar(100)", (c) => c.notNull())
    .addColumn("md5_hash", "varchar(40)", (c) => c.notNull())
    .addColumn("generation", "varchar(30)", (c) => c.notNull())
    .addColumn("metageneration", "integer", (c) => c.notNull())
    .addColumn("cache_control", "varchar(200)")
    .addColumn("content_disposition", "varchar(300)")
    .addColumn("content_encoding", "varchar(50)")
    .addColumn("content_language", "varchar(50)")
    .addColumn("custom_metadata", "text")
    .addColumn("download_tokens", "text", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
    .addPrimaryKeyConstraint("storage_objects_pk", ["bucket", "path"])
    .execute();
  await db.schema.createIndex("storage_objects_owner").on("storage_objects").column("owner_id").execute();

  await db.schema
    .createTable("storage_uploads")
    .addColumn("id", "varchar(40)", (c) => c.primaryKey())
    .addColumn("bucket", "varchar(63)", (c) => c.notNull())
    .addColumn("path", "varchar(1024)", (c) => c.notNull())
    .addColumn("owner_id", "text", (c) => c.notNull())
    .addColumn("metadata", "text", (c) => c.notNull())
    .addColumn("total_size", "bigint")
    .addColumn("received", "bigint", (c) => c.notNull())
    .addColumn("chunks", "integer", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("jwks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("publicKey", "text", (c) => c.notNull())
    .addColumn("privateKey", "text", (c) => c.notNull())
    .addColumn("createdAt", time, (c) => c.notNull())
    .addColumn("expiresAt", time)
    .addColumn("alg", "text")
    .addColumn("crv", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["jwks", "storage_uploads", "storage_objects"]) await db.schema.dropTable(table).execute();
}
