import type { Kysely } from "kysely";

/**
 * The wishing well (PRODUCT §3): wishes, one vote per user per wish, and each author's notice settings.
 * Times are ISO-8601 text on both databases (they sort as text). `vote_count` is kept in step with `wish_votes`
 * in the same transaction, so the board sorts by votes without counting rows on every read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("wishes")
    .addColumn("id", "varchar(36)", (c) => c.primaryKey())
    .addColumn("author_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("status", "varchar(16)", (c) => c.notNull())
    .addColumn("status_reason", "text")
    .addColumn("team_reply", "text")
    .addColumn("vote_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("merged_into", "varchar(36)", (c) => c.references("wishes.id").onDelete("set null"))
    .addColumn("hidden_at", "varchar(30)")
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("wishes_board_created").on("wishes").columns(["hidden_at", "merged_into", "created_at"]).execute();
  await db.schema.createIndex("wishes_board_votes").on("wishes").columns(["hidden_at", "merged_into", "vote_count"]).execute();
  await db.schema.createIndex("wishes_author").on("wishes").column("author_id").execute();

  await db.schema
    .createTable("wish_votes")
    .addColumn("wish_id", "varchar(36)", (c) => c.notNull().references("wishes.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("user.id").onDelete("cascade"))
    .addColumn("created_at", "varchar(30)", (c) => c.notNull())
    .addPrimaryKeyConstraint("wish_votes_pk", ["wish_id", "user_id"])
    .execute();
  await db.schema.createIndex("wish_votes_user").on("wish_votes").column("user_id").execute();

  // One row per author who has been sent a notice: the unguessable unsubscribe token, and whether they left.
  await db.schema
    .createTable("wish_notice_settings")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("user.id").onDelete("cascade"))
    .addColumn("token", "varchar(64)", (c) => c.notNull().unique())
    .addColumn("unsubscribed_at", "varchar(30)")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ["wish_notice_settings", "wish_votes", "wishes"]) await db.schema.dropTable(table).execute();
}
