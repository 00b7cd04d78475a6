import type { Kysely } from "kysely";

/**
 * The OpenID provider's records for the app's sign-in (app/features/app-sign-in): grants, tokens, codes,
 * interactions and provider sessions as JSON rows with their expiry (unless Redis holds them), and the signing
 * keys the provider made for itself when OIDC_JWKS is unset.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("oidc_record")
    .addColumn("kind", "varchar(40)", (c) => c.notNull())
    .addColumn("id", "varchar(255)", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("grant_id", "varchar(255)")
    .addColumn("uid", "varchar(255)")
    // Milliseconds since 1970 (bigint on PostgreSQL), so expiry compares as a number on both databases.
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("consumed_at", "bigint")
    .addPrimaryKeyConstraint("oidc_record_pk", ["kind", "id"])
    .execute();
  await db.schema.createIndex("oidc_record_grant").on("oidc_record").column("grant_id").execute();
  await db.schema.createIndex("oidc_record_uid").on("oidc_record").column("uid").execute();
  await db.schema.createIndex("oidc_record_expiry").on("oidc_record").column("expires_at").execute();

  await db.schema
    .createTable("oidc_signing_key")
    .addColumn("kid", "varchar(64)", (c) => c.primaryKey())
    .addColumn("private_jwk", "text", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("oidc_signing_key").execute();
  await db.schema.dropTable("oidc_record").execute();
}
