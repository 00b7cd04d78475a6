import { describe, expect, it } from "vitest";
import { describeEachDatabase, type TestDatabase } from "~tests/helpers/databases";
import { createPostStore, PAGE_SIZE } from "./posts.server";
import { parsePostFields, type PostFields } from "./post-input";
import { devBlogFeed } from "./feed.server";

const siteUrl = "https://example.tw";

function fields(overrides: Partial<Record<string, string>> = {}): PostFields {
  const parsed = parsePostFields({ title: "標題", summary: "摘要", body: "內文", tags: "", cover: "", ...overrides });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.fields;
}

/** A user row as Better Auth writes it (booleans and times differ between the dialects). */
async function insertUser({ handle }: TestDatabase, id: string, name: string) {
  const postgres = handle.dialect === "postgres";
  const now = postgres ? new Date() : new Date().toISOString();
  await handle.db
    .insertInto("user")
    .values({ id, name, email: `${id}@example.tw`, emailVerified: postgres ? true : 1, image: null, createdAt: now, updatedAt: now, isAnonymous: postgres ? false : 0, role: "editor" })
    .execute();
}

describeEachDatabase("dev-blog posts", (database) => {
  const store = () => createPostStore({ db: database().handle.db, siteUrl });
  const authorId = "author-1";

  it("stores a post with a 20-character id, renders its body and joins the author's name", async () => {
    await insertUser(database(), authorId, "小編");
    const created = await store().create(fields({ title: "第一篇", body: "# 標題\n\n[外部](https://other.example/x)", tags: "設計, 效能,設計" }), "published", authorId);
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.id).toMatch(/^[A-Za-z0-9]{20}$/);
    const page = await store().getPage(created.id);
    expect(page).toMatchObject({ title: "第一篇", tags: ["設計", "效能"], authorName: "小編", status: "published" });
    expect(page?.html).toContain("<h2>標題</h2>");
    expect(page?.html).toContain('rel="noopener nofollow ugc"');
    expect(page?.publishedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("refuses a save based on an old version and changes nothing", async () => {
    const created = await store().create(fields({ title: "原本" }), "draft", authorId);
    if (!created.ok) throw new Error("not created");
    const first = await store().update(created.id, created.version, fields({ title: "第一次修改" }));
    expect(first).toMatchObject({ ok: true, version: 2 });
    const stale = await store().update(created.id, created.version, fields({ title: "舊版本上的修改" }), "draft");
    expect(stale).toEqual({ ok: false, reason: "stale" });
    expect((await store().getEditable(created.id))?.title).toBe("第一次修改");
    expect(first).toMatchObject({ status: "draft" });
    expect(await store().update(created.id, 1, fields(), "published")).toEqual({ ok: false, reason: "stale" });
    expect(await store().remove(created.id, 1)).toEqual({ ok: false, reason: "stale" });
    expect(await store().getEditable(created.id)).toMatchObject({ version: 2, status: "draft" });
    expect(await store().update("A".repeat(20), 1, fields(), "draft")).toEqual({ ok: false, reason: "not-found" });
  });

  it("keeps the first publication time when a post is withdrawn and published again", async () => {
    const created = await store().create(fields(), "draft", authorId);
    if (!created.ok) throw new Error("not created");
    expect((await store().getPage(created.id))?.publishedAt).toBeNull();
    const published = await store().update(created.id, 1, fields(), "published");
    const firstTime = (await store().getPage(created.id))?.publishedAt;
    expect(published).toMatchObject({ ok: true, version: 2, status: "published" });
    await store().update(created.id, 2, fields(), "draft");
    await new Promise((resolve) => setTimeout(resolve, 5));
    await store().update(created.id, 3, fields({ title: "再發表" }), "published");
    expect((await store().getPage(created.id))?.publishedAt).toBe(firstTime);
    expect(await store().remove(created.id, 4)).toEqual({ ok: true });
    expect(await store().getPage(created.id)).toBeNull();
  });
});

describeEachDatabase("dev-blog list", (database) => {
  const store = () => createPostStore({ db: database().handle.db, siteUrl });

  it("lists published posts newest first, a page at a time, with drafts left out", async () => {
    await insertUser(database(), "writer", "作者");
    const ids: string[] = [];
    for (let index = 0; index < PAGE_SIZE + 2; index += 1) {
      const created = await store().create(fields({ title: `文章 ${index}`, tags: index % 2 ? "單數" : "雙數" }), "published", "writer");
      if (created.ok) ids.push(created.id);
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await store().create(fields({ title: "草稿" }), "draft", "writer");

    const first = await store().listPublished({ page: 1, tag: null });
    expect(first.total).toBe(PAGE_SIZE + 2);
    expect(first.items.map((post) => post.title)).toEqual(
      Array.from({ length: PAGE_SIZE }, (_, index) => `文章 ${PAGE_SIZE + 1 - index}`),
    );
    const second = await store().listPublished({ page: 2, tag: null });
    expect(second.items.map((post) => post.title)).toEqual(["文章 1", "文章 0"]);
    expect((await store().listPublished({ page: 3, tag: null })).items).toEqual([]);

    const odd = await store().listPublished({ page: 1, tag: "單數" });
    expect(odd.total).toBe((PAGE_SIZE + 2) / 2);
    expect(odd.items.every((post) => post.tags.includes("單數"))).toBe(true);
    expect((await store().listPublished({ page: 1, tag: "沒有這個" })).total).toBe(0);

    expect((await store().listDrafts()).map((post) => post.title)).toEqual(["草稿"]);
    expect((await store().latestPublished(2)).map((post) => post.title)).toEqual([`文章 ${PAGE_SIZE + 1}`, `文章 ${PAGE_SIZE}`]);
  });
});

describeEachDatabase("dev-blog feed and covers under hostile values", (database) => {
  const store = () => createPostStore({ db: database().handle.db, siteUrl });

  it("stays well-formed XML whatever the editor's name holds", async () => {
    await insertUser(database(), "author-hostile", "編輯]]>\u0007\u001b<x>&\u202E");
    const created = await store().create(fields({ title: "t]]>\u0001", summary: "s", body: "b" }), "published", "author-hostile");
    expect(created.ok).toBe(true);
    const xml = await devBlogFeed(store(), { siteUrl, productName: "任務小勇士", title: "開發日誌", description: "d" });
    // XML 1.0's Char production: nothing outside it may appear, escaped or not.
    // eslint-disable-next-line no-control-regex -- control characters are what is looked for
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(xml).toContain("<name>編輯]]&gt;&lt;x&gt;&amp;\u202E</name>");
  });

  it("never serves a cover stored before covers went through the redirect rule", async () => {
    const created = await store().create(fields(), "published", "author-hostile");
    if (!created.ok) throw new Error("not created");
    await database().handle.db.updateTable("dev_blog_posts").set({ cover_url: "/\t/evil.example/pixel.png" }).where("id", "=", created.id).execute();
    expect((await store().getPage(created.id))?.coverUrl).toBeNull();
    expect((await store().getEditable(created.id))?.coverUrl).toBeNull();
  });
});

describe("post fields", () => {
  it("splits tags on either comma and 、, drops blanks and repeats, and checks the cover address", () => {
    expect(fields({ tags: "a，b、 c ,,a" }).tags).toEqual(["a", "b", "c"]);
    expect(parsePostFields({ title: " ", summary: "", body: "", tags: "", cover: "" })).toEqual({ ok: false, errors: { title: "請輸入標題" }, publishOnly: false });
    expect(parsePostFields({ title: "t", summary: "", body: " ", tags: "", cover: "", intent: "publish" })).toEqual({
      ok: false,
      errors: { summary: "發表前請填寫摘要", body: "發表前請填寫內文" },
      publishOnly: true,
    });
    // Same-site paths only (the CSP's img-src is 'self'), judged by the redirect rule: a tab or an encoded one
    // must not turn the path into another host's address.
    const refused = ["javascript:alert(1)", "//evil.example/x.png", "http://plain.example/x.png", "https://images.example/x.png", "data:image/png;base64,AA", "/\t/evil.example/pixel.png", "/%09/evil.example/pixel.png"];
    for (const cover of refused) {
      expect(parsePostFields({ title: "t", summary: "", body: "", tags: "", cover }).ok).toBe(false);
    }
    expect(fields({ cover: "/v0/b/default/o/blog%2Fa.png?alt=media&token=x" }).cover).toBe("/v0/b/default/o/blog%2Fa.png?alt=media&token=x");
  });
});
