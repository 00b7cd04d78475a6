import { sql, type Kysely, type Transaction } from "kysely";
import type { Database, DevBlogPostsTable } from "~/db/schema";
import { readingMinutes } from "~/features/articles/reading-time";
import { newPostId } from "./post-id.server";
import type { PostFields } from "./post-input";
import { renderPostBody } from "./render.server";
import type { EditablePost, PostPage, PostStatus, PostSummary } from "./types";
import { sameSitePath } from "~/lib/redirect-rule";

export const PAGE_SIZE = 6;

export type WriteResult = { ok: true; id: string; version: number; status: PostStatus } | { ok: false; reason: "stale" | "not-found" };

type Row = Pick<DevBlogPostsTable, "id" | "title" | "summary" | "cover_url" | "tags" | "published_at" | "reading_minutes"> & {
  author_name: string | null;
};

/** Publishing stamps the first publication time (kept on later ones); withdrawing keeps it too. */
const statusChange = (status: PostStatus, now: string) => ({
  status,
  published_at: status === "published" ? sql<string>`coalesce(published_at, ${now})` : sql<string | null>`published_at`,
});

const summaryOf = (row: Row): PostSummary => ({
  id: row.id,
  title: row.title,
  summary: row.summary,
  // Judged again on the way out: a row saved before covers went through the redirect rule never reaches a page.
  coverUrl: row.cover_url && sameSitePath(row.cover_url),
  tags: JSON.parse(row.tags) as string[],
  publishedAt: row.published_at,
  readingMinutes: Number(row.reading_minutes),
  authorName: row.author_name,
});

/**
 * Dev-blog posts in the database. Every page read is one query (the author's name joined, the total count
 * taken with a window function); writes check the version they were based on, so a stale save changes nothing.
 */
export function createPostStore({ db, siteUrl }: { db: Kysely<Database>; siteUrl: string }) {
  const withAuthor = () =>
    db
      .selectFrom("dev_blog_posts as p")
      .leftJoin("user as u", "u.id", "p.author_id")
      .select(["p.id", "p.title", "p.summary", "p.cover_url", "p.tags", "p.published_at", "p.reading_minutes", "u.name as author_name"]);

  const rendered = (fields: PostFields) => ({
    title: fields.title,
    summary: fields.summary,
    body: fields.body,
    body_html: renderPostBody(fields.body, siteUrl),
    reading_minutes: readingMinutes(fields.body),
    cover_url: fields.cover,
    tags: JSON.stringify(fields.tags),
  });

  async function writeTags(trx: Transaction<Database>, postId: string, tags: string[]) {
    await trx.deleteFrom("dev_blog_post_tags").where("post_id", "=", postId).execute();
    if (tags.length) await trx.insertInto("dev_blog_post_tags").values(tags.map((tag) => ({ post_id: postId, tag }))).execute();
  }

  /** Tells a stale version from a missing post after a guarded write touched no row. */
  async function failure(postId: string): Promise<WriteResult> {
    const row = await db.selectFrom("dev_blog_posts").select("id").where("id", "=", postId).executeTakeFirst();
    return { ok: false, reason: row ? "stale" : "not-found" };
  }

  return {
    /** Published posts, newest first, one page of them (optionally only those with `tag`). */
    async listPublished({ page, tag }: { page: number; tag: string | null }): Promise<{ items: PostSummary[]; total: number }> {
      let query = withAuthor()
        .select(sql<number>`count(*) over ()`.as("total"))
        .where("p.status", "=", "published");
      if (tag !== null) {
        query = query.where("p.id", "in", db.selectFrom("dev_blog_post_tags").select("post_id").where("tag", "=", tag));
      }
      const rows = await query
        .orderBy("p.published_at", "desc")
        .orderBy("p.id", "desc")
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
        .execute();
      return { items: rows.map(summaryOf), total: Number(rows[0]?.total ?? 0) };
    },

    /** Every draft, most recently changed first (editors only; the list screen shows them above the posts). */
    async listDrafts(): Promise<PostSummary[]> {
      const rows = await withAuthor().where("p.status", "=", "draft").orderBy("p.updated_at", "desc").limit(100).execute();
      return rows.map(summaryOf);
    },

    /** One post as a page (draft or published: the caller decides who may see a draft). */
    async getPage(id: string): Promise<PostPage | null> {
      const row = await withAuthor()
        .select(["p.body_html", "p.status", "p.updated_at"])
        .where("p.id", "=", id)
        .executeTakeFirst();
      return row ? { ...summaryOf(row), html: row.body_html, status: row.status, updatedAt: row.updated_at } : null;
    },

    async getEditable(id: string): Promise<EditablePost | null> {
      const row = await db
        .selectFrom("dev_blog_posts")
        .select(["id", "title", "summary", "body", "cover_url", "tags", "status", "version", "updated_at"])
        .where("id", "=", id)
        .executeTakeFirst();
      if (!row) return null;
      const { cover_url, tags, updated_at, version, ...rest } = row;
      return { ...rest, coverUrl: cover_url && sameSitePath(cover_url), tags: JSON.parse(tags) as string[], version: Number(version), updatedAt: updated_at };
    },

    /** Published posts for the feed and the sitemap, newest first. */
    async latestPublished(limit: number): Promise<PostPage[]> {
      const rows = await withAuthor()
        .select(["p.body_html", "p.status", "p.updated_at"])
        .where("p.status", "=", "published")
        .orderBy("p.published_at", "desc")
        .orderBy("p.id", "desc")
        .limit(limit)
        .execute();
      return rows.map((row) => ({ ...summaryOf(row), html: row.body_html, status: row.status, updatedAt: row.updated_at }));
    },

    /** Every published post's id (the sitemap lists them all). */
    async publishedIds(): Promise<string[]> {
      const rows = await db.selectFrom("dev_blog_posts").select("id").where("status", "=", "published").orderBy("published_at", "desc").execute();
      return rows.map((row) => row.id);
    },

    async create(fields: PostFields, status: PostStatus, authorId: string): Promise<WriteResult> {
      const id = newPostId();
      const now = new Date().toISOString();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto("dev_blog_posts")
          .values({
            id,
            ...rendered(fields),
            status,
            author_id: authorId,
            created_at: now,
            updated_at: now,
            published_at: status === "published" ? now : null,
            version: 1,
          })
          .execute();
        await writeTags(trx, id, fields.tags);
      });
      return { ok: true, id, version: 1, status };
    },

    /**
     * Saves `fields` over version `version`, publishing or withdrawing when `status` is given (else the status
     * stays). The first publication sets the published time; later ones keep it.
     */
    async update(id: string, version: number, fields: PostFields, status?: PostStatus): Promise<WriteResult> {
      const now = new Date().toISOString();
      const saved = await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable("dev_blog_posts")
          .set({
            ...rendered(fields),
            ...(status ? statusChange(status, now) : {}),
            updated_at: now,
            version: sql<number>`version + 1`,
          })
          .where("id", "=", id)
          .where("version", "=", version)
          .returning(["status", "version"])
          .executeTakeFirst();
        if (row) await writeTags(trx, id, fields.tags);
        return row;
      });
      return saved ? { ok: true, id, version: Number(saved.version), status: saved.status } : failure(id);
    },

    async remove(id: string, version: number): Promise<{ ok: true } | { ok: false; reason: "stale" | "not-found" }> {
      const result = await db.deleteFrom("dev_blog_posts").where("id", "=", id).where("version", "=", version).executeTakeFirst();
      if (Number(result.numDeletedRows)) return { ok: true };
      const outcome = await failure(id);
      return outcome.ok ? { ok: false, reason: "stale" } : outcome;
    },
  };
}

export type PostStore = ReturnType<typeof createPostStore>;
