import { PostgresAdapter, type Kysely } from "kysely";

/**
 * Two-step sign-in and passkeys. `twoFactor` and `user.twoFactorEnabled` are Better Auth's two-factor plugin's
 * (names and types as its generator emits them, checked by the auth-flows test); `passkey` is ours
 * (app/features/auth/ways-in/passkey/passkey.server.ts). Both go with their user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const time = postgres ? "timestamptz" : "date";
  const bool = postgres ? "boolean" : "integer";

  await db.schema.alterTable("user").addColumn("twoFactorEnabled", bool).execute();
  await db.schema
    .createTable("twoFactor")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("backupCodes", "text", (c) => c.notNull())
    .addColumn("userId", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("verified", bool)
    .addColumn("failedVerificationCount", "integer")
    .addColumn("lockedUntil", time)
    .execute();
  await db.schema.createIndex("twoFactor_secret_idx").on("twoFactor").column("secret").execute();
  await db.schema.createIndex("twoFactor_userId_idx").on("twoFactor").column("userId").execute();

  await db.schema
    .createTable("passkey")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("name", "varchar(100)", (c) => c.notNull())
    .addColumn("credential_id", "varchar(1400)", (c) => c.notNull().unique())
    .addColumn("public_key", "text", (c) => c.notNull())
    .addColumn("counter", "bigint", (c) => c.notNull())
    .addColumn("transports", "varchar(200)", (c) => c.notNull())
    // 0 or 1 on both databases (better-sqlite3 binds no booleans).
    .addColumn("backed_up", "integer", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("last_used_at", "varchar(30)")
    .execute();
  await db.schema.createIndex("passkey_user_id_idx").on("passkey").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("passkey").execute();
  await db.schema.dropTable("twoFactor").execute();
  await db.schema.alterTable("user").dropColumn("twoFactorEnabled").execute();
}
