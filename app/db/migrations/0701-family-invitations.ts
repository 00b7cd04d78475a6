import type { Kysely } from "kysely";

/**
 * Invitations to join a family as a parent (PRODUCT §5, Families): single use, seven days. Only the SHA-256 of the link's
 * token is kept; `email` is where it was mailed, if it was (nothing about whether that address has an account).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("family_invitation")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("family_id", "varchar(36)", (c) => c.notNull().references("family.id").onDelete("cascade"))
    .addColumn("token_hash", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("invited_by", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("email", "text")
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("expires_at", "varchar(30)", (c) => c.notNull())
    .addColumn("accepted_at", "varchar(30)")
    .addColumn("accepted_by", "text")
    .addColumn("cancelled_at", "varchar(30)")
    .execute();
  await db.schema.createIndex("family_invitation_family").on("family_invitation").column("family_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("family_invitation").execute();
}
