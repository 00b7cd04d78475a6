import type { Kysely } from "kysely";

/**
 * A child's tablet in its family's record (PRODUCT §5, Families): the grant's session row (the approving parent's) tied to
 * the child, so every parent of the family sees and can end it. The row goes with the session (ended anywhere)
 * and with the child.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("family_device")
    .addColumn("grant_id", "text", (c) => c.primaryKey().references("session.id").onDelete("cascade"))
    .addColumn("child_id", "varchar(36)", (c) => c.notNull().references("family_child.id").onDelete("cascade"))
    .addColumn("approved_by", "text")
    .addColumn("app_name", "text", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("family_device_child").on("family_device").column("child_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("family_device").execute();
}
