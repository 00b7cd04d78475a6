import type { Kysely } from "kysely";

/**
 * The previous refresh token's grace (app/features/app-sign-in/refresh-rotation.server.ts): a consumed refresh
 * token keeps the id of the token that replaced it and the answer that carried it, so a client whose answer was
 * lost gets the same answer again for a short while.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("oidc_record").addColumn("successor_id", "varchar(255)").execute();
  await db.schema.alterTable("oidc_record").addColumn("kept_answer", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("oidc_record").dropColumn("kept_answer").execute();
  await db.schema.alterTable("oidc_record").dropColumn("successor_id").execute();
}
