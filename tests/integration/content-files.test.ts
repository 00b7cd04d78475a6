import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { getEnv } from "~/config/env.server";
import { prerenderedPaths } from "~/prerendered-paths";
import { getArticle, listArticles, PAGE_SIZE } from "~/features/articles/collections.server";
import { loadData, loadHome } from "~/features/pages/data.server";
import { getLegalDocument, getTopic, listTopics } from "~/features/articles/documents.server";
import type { Image } from "~content/types";

/** The width and height written in an SVG file under public/. */
function svgSize(src: string) {
  const svg = fs.readFileSync(`public${src}`, "utf8");
  return { width: Number(svg.match(/<svg[^>]* width="(\d+)"/)?.[1]), height: Number(svg.match(/<svg[^>]* height="(\d+)"/)?.[1]) };
}

const expectImage = (image: Image) => expect(svgSize(image.src), image.src).toEqual({ width: image.width, height: image.height });

const all = (name: "blog" | "news") => {
  const first = listArticles(name, new URLSearchParams());
  if (!first) throw new Error(`no ${name} list`);
  return Array.from({ length: first.pageCount }, (_, index) =>
    listArticles(name, new URLSearchParams({ page: String(index + 1) }))?.items ?? [],
  ).flat();
};

describe("content files", () => {
  it("has at least six substantial blog articles and four news items, each with its cover", () => {
    const blog = all("blog");
    const news = all("news");
    expect(blog.length).toBeGreaterThanOrEqual(6);
    expect(news).toHaveLength(4);
    for (const summary of [...blog, ...news]) expectImage(summary.cover);
    for (const { slug } of blog) {
      const text = getArticle("blog", slug)?.html.replace(/<[^>]+>|\s/g, "") ?? "";
      expect(text.length, slug).toBeGreaterThanOrEqual(800);
      expect(text.length, slug).toBeLessThanOrEqual(2000);
    }
  });

  it("pages the blog and filters it by category", () => {
    const first = listArticles("blog", new URLSearchParams());
    expect(first?.items).toHaveLength(PAGE_SIZE);
    expect(first?.pageCount).toBeGreaterThan(1);
    const category = first?.categories[0] ?? "";
    const filtered = listArticles("blog", new URLSearchParams({ category }));
    expect(filtered?.items.length).toBeGreaterThan(0);
    expect(filtered?.items.every((item) => item.category === category)).toBe(true);
    expect(listArticles("blog", new URLSearchParams({ category: "不存在的分類" }))).toBeNull();
    expect(listArticles("blog", new URLSearchParams({ page: "99" }))).toBeNull();
  });

  it("links each article to its older and newer neighbours", () => {
    const [newest, second] = all("news");
    const detail = getArticle("news", second?.slug ?? "");
    expect(detail?.newer).toEqual({ slug: newest?.slug, title: newest?.title });
    expect(getArticle("news", newest?.slug ?? "")?.newer).toBeNull();
    expect(detail?.readingMinutes).toBeGreaterThanOrEqual(1);
    expect(getArticle("news", "no-such-item")).toBeNull();
  });

  it("has the learning topics, each with related articles that exist", () => {
    expect(listTopics().map((topic) => topic.slug)).toEqual(
      expect.arrayContaining(["habits", "responsibility", "age-appropriate-chores", "screen-time"]),
    );
    for (const { slug } of listTopics()) expect(getTopic(slug)?.related.length, slug).toBeGreaterThan(0);
    expect(getTopic("habits/extra")).toBeNull();
  });

  it("resolves the home FAQ teaser and every illustration of the data files", () => {
    expect(loadHome().faqTeaser.questions).toHaveLength(3);
    const home = loadData("home");
    for (const image of [home.hero.image, ...home.steps.items.map((step) => step.image)]) expectImage(image);
    for (const step of loadData("tutorial").steps) expectImage(step.image);
  });

  it("writes the legal pages for the Personal Data Protection Act, with the support address", () => {
    const privacy = getLegalDocument("privacy").html;
    for (const phrase of ["個人資料保護法", "第 3 條", "第 13 條", "30 天", "兒童", "Cookie", getEnv().SUPPORT_EMAIL]) {
      expect(privacy).toContain(phrase);
    }
    expect(getLegalDocument("terms").html).toContain(getEnv().SUPPORT_EMAIL);
  });

  it("lists the Ironman series day by day, each link the day's own iThome article or none at all", () => {
    const { articles } = loadData("ironman2025");
    expect(articles.map((article) => article.day)).toEqual(articles.map((_, index) => index + 1));
    expect(articles).toHaveLength(30);
    const urls = articles.flatMap((article) => (article.url ? [article.url] : []));
    for (const url of urls) expect(url).toMatch(/^https:\/\/ithelp\.ithome\.com\.tw\/articles\/\d+$/);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it("prerenders every article, topic and list's first page, but no screen that reads the session", async () => {
    const paths = await prerenderedPaths();
    const expected = [
      ...all("blog").map((item) => `/blog/${item.slug}`),
      ...all("news").map((item) => `/news/${item.slug}`),
      ...listTopics().map((topic) => `/learning-resources/${topic.slug}`),
    ];
    expect(paths).toEqual(expect.arrayContaining(expected));
    // Their other pages (`?page=2`) carry a query string and are rendered per request (server/static-files.ts).
    expect(paths).toEqual(expect.arrayContaining(["/blog", "/news"]));
    expect(paths).not.toContain("/account-deletion");
  });
});
