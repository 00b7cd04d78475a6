import type { Kysely } from "kysely";

// Extra email headers travel with an outbox row (JSON): the wishing well's notices carry List-Unsubscribe.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("mail_outbox").addColumn("headers", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("mail_outbox").dropColumn("headers").execute();
}
