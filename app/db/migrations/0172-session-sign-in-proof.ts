import type { Kysely } from "kysely";

/**
 * How each site session was signed in (app/features/auth/sign-in-proof.server.ts): the OpenID `amr` values of the
 * proof that made it, space-separated, so the app's ID token can say whether the parent used a password, a
 * passkey, a text message or two steps. Sessions from before this column have none (the weakest reading).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("session").addColumn("amr", "varchar(100)").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("session").dropColumn("amr").execute();
}
