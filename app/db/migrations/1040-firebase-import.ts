import type { Kysely } from "kysely";

// Accounts imported from Firebase Authentication (app/features/firebase-import): the project's password hash
// parameters (one row, written by the import; the imported hashes need them until each is rehashed at its first
// sign-in) and one row per imported uid, with a fingerprint of its export entry, so a second run of the same
// export changes nothing and a newer one updates only what changed.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("firebase_hash_parameters")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("signer_key", "text", (c) => c.notNull())
    .addColumn("salt_separator", "text", (c) => c.notNull())
    .addColumn("rounds", "integer", (c) => c.notNull())
    .addColumn("mem_cost", "integer", (c) => c.notNull())
    .addColumn("written_at", "varchar(30)", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("firebase_imports")
    .addColumn("uid", "varchar(128)", (c) => c.primaryKey())
    .addColumn("fingerprint", "varchar(64)", (c) => c.notNull())
    .addColumn("imported_at", "varchar(30)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
    .addColumn("last_signed_in_at", "varchar(30)")
    .addColumn("custom_attributes", "text")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("firebase_imports").execute();
  await db.schema.dropTable("firebase_hash_parameters").execute();
}
