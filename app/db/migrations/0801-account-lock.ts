import type { Kysely } from "kysely";

// An operator's lock on an account (app/features/auth/account-lock.server.ts): when it was locked, or null. A
// locked account gets no new session by any way in.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("user").addColumn("lockedAt", "varchar(30)").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("user").dropColumn("lockedAt").execute();
}
