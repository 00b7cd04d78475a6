import type { Kysely } from "kysely";

/**
 * Developer-blog posts (PRODUCT §3). Times are ISO-8601 text on both databases so they sort as text.
 * `body_html` is the sanitised rendering made on save, so a page read never runs the Markdown pipeline;
 * `tags` is the post's tag list as JSON for display, and dev_blog_post_tags the same tags for the filter.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("dev_blog_posts")
    .addColumn("id", "varchar(20)", (col) => col.primaryKey())
    .addColumn("title", "varchar(200)", (col) => col.notNull())
    .addColumn("summary", "varchar(500)", (col) => col.notNull())
    .addColumn("body", "text", (col) => col.notNull())
    .addColumn("body_html", "text", (col) => col.notNull())
    .addColumn("reading_minutes", "integer", (col) => col.notNull())
    .addColumn("cover_url", "varchar(2000)")
    .addColumn("tags", "text", (col) => col.notNull())
    .addColumn("status", "varchar(10)", (col) => col.notNull())
    .addColumn("author_id", "text", (col) => col.references("user.id").onDelete("set null"))
    .addColumn("created_at", "varchar(30)", (col) => col.notNull())
    .addColumn("updated_at", "varchar(30)", (col) => col.notNull())
    .addColumn("published_at", "varchar(30)")
    .addColumn("version", "integer", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("dev_blog_posts_status_published_at")
    .on("dev_blog_posts")
    .columns(["status", "published_at", "id"])
    .execute();

  await db.schema
    .createTable("dev_blog_post_tags")
    .addColumn("post_id", "varchar(20)", (col) => col.notNull().references("dev_blog_posts.id").onDelete("cascade"))
    .addColumn("tag", "varchar(40)", (col) => col.notNull())
    .addPrimaryKeyConstraint("dev_blog_post_tags_pk", ["tag", "post_id"])
    .execute();
  await db.schema.createIndex("dev_blog_post_tags_post_id").on("dev_blog_post_tags").column("post_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("dev_blog_post_tags").execute();
  await db.schema.dropTable("dev_blog_posts").execute();
}
