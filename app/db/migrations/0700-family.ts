import type { Kysely } from "kysely";

/**
 * Families (issue 31): a household of parents (one owner) and children's profiles, and each parent's recorded
 * consent to a child's profile. A parent belongs to one family (`family_member.user_id` is the key). Times are
 * ISO-8601 text on both databases. Children have no way in of their own: no email, no password.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("family")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("family_member")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("family_id", "varchar(36)", (c) => c.notNull().references("family.id").onDelete("cascade"))
    .addColumn("role", "varchar(16)", (c) => c.notNull())
    .addColumn("joined_at", "varchar(30)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("family_member_family").on("family_member").column("family_id").execute();

  await db.schema
    .createTable("family_child")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("family_id", "varchar(36)", (c) => c.notNull().references("family.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("avatar", "varchar(16)", (c) => c.notNull())
    .addColumn("birth_year", "integer", (c) => c.notNull())
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("family_child_family").on("family_child").column("family_id").execute();

  // The proof of a parent's consent to a child's profile (PDPA Enforcement Rules Art. 7): who, when, from which
  // address and browser, and which version of the notice they read. It lives as long as the child's profile.
  await db.schema
    .createTable("family_consent")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("child_id", "varchar(36)", (c) => c.notNull().references("family_child.id").onDelete("cascade"))
    .addColumn("parent_id", "text", (c) => c.notNull())
    .addColumn("parent_email", "text", (c) => c.notNull())
    .addColumn("notice_version", "varchar(32)", (c) => c.notNull())
    .addColumn("ip_address", "varchar(64)")
    .addColumn("user_agent", "text")
    .addColumn("consented_at", "varchar(30)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("family_consent_child").on("family_consent").column("child_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["family_consent", "family_child", "family_member", "family"]) await db.schema.dropTable(table).execute();
}
