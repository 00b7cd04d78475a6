import { PostgresAdapter, type Kysely } from "kysely";

// Phone sign-in (Better Auth's phoneNumber plugin, app/features/auth/ways-in/phone/phone.ts): an account's one number,
// stored as E.164 and unique among accounts, and whether a texted code proved it.
export async function up(db: Kysely<unknown>): Promise<void> {
  const bool = db.getExecutor().adapter instanceof PostgresAdapter ? "boolean" : "integer";
  await db.schema.alterTable("user").addColumn("phoneNumber", "text").execute();
  await db.schema.alterTable("user").addColumn("phoneNumberVerified", bool).execute();
  // SQLite cannot add a UNIQUE column: a unique index does the same (NULLs never clash).
  await db.schema.createIndex("user_phone_number_unique").on("user").column("phoneNumber").unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("user_phone_number_unique").execute();
  await db.schema.alterTable("user").dropColumn("phoneNumberVerified").execute();
  await db.schema.alterTable("user").dropColumn("phoneNumber").execute();
}
