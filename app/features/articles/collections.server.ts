import { articleFrontMatter, parseMarkdownFile, slugOf } from "./front-matter.server";
import { renderMarkdown } from "./markdown.server";
import { paginate, parsePageParam } from "./pagination";
import { fillText, type ContentVariables } from "~/features/pages/placeholders";
import { contentVariables } from "~/features/pages/variables.server";
import { readingMinutes } from "./reading-time";
import type { ArticleDetail, ArticleLink, ArticleListPage, ArticleSummary, CollectionName } from "./article-types";

// Markdown files are bundled into the server build as text; nothing of them reaches the browser bundle.
const sources: Record<CollectionName, Record<string, string>> = {
  blog: import.meta.glob<string>("/content/blog/*.md", { query: "?raw", import: "default", eager: true }),
  news: import.meta.glob<string>("/content/news/*.md", { query: "?raw", import: "default", eager: true }),
};

export const PAGE_SIZE = 4;

interface Article extends ArticleSummary {
  body: string;
}

/** Parses and sorts one collection, newest first (then by slug, so the order is stable). */
export function buildCollection(files: Record<string, string>, variables: ContentVariables): Article[] {
  return Object.entries(files)
    .map(([file, raw]) => {
      const { meta, body } = parseMarkdownFile(file, fillText(raw, variables, file), articleFrontMatter);
      return { ...meta, slug: slugOf(file), body };
    })
    .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
}

const cache = new Map<CollectionName, Article[]>();

function collection(name: CollectionName): Article[] {
  let articles = cache.get(name);
  if (!articles) {
    articles = buildCollection(sources[name], contentVariables());
    cache.set(name, articles);
  }
  return articles;
}

const summaryOf = ({ body: _body, ...summary }: Article): ArticleSummary => summary;

/** Links to the named articles, in the order given; an unknown slug is an authoring mistake and throws. */
export function articleLinks(name: CollectionName, slugs: readonly string[]): ArticleLink[] {
  return slugs.map((slug) => {
    const article = collection(name).find((candidate) => candidate.slug === slug);
    if (!article) throw new Error(`No ${name} article "${slug}"`);
    return { slug, title: article.title };
  });
}

/** The list page for `?page=` and `?category=`; null for a page beyond the last or an unknown category. */
export function listArticles(name: CollectionName, searchParams: URLSearchParams): ArticleListPage | null {
  const articles = collection(name);
  const categories = [...new Set(articles.map((article) => article.category))];
  const category = searchParams.get("category");
  if (category !== null && !categories.includes(category)) return null;
  const page = parsePageParam(searchParams.get("page"));
  if (page === null) return null;
  const filtered = category === null ? articles : articles.filter((article) => article.category === category);
  const result = paginate(filtered.map(summaryOf), page, PAGE_SIZE);
  return result && { ...result, categories, category };
}

/** One article with its HTML, reading time and neighbours; null for an unknown slug. */
export function getArticle(name: CollectionName, slug: string): ArticleDetail | null {
  const articles = collection(name);
  const index = articles.findIndex((article) => article.slug === slug);
  const article = articles[index];
  if (!article) return null;
  const link = (neighbour: Article | undefined) => neighbour && { slug: neighbour.slug, title: neighbour.title };
  return {
    ...summaryOf(article),
    html: renderMarkdown(article.body),
    readingMinutes: readingMinutes(article.body),
    newer: link(articles[index - 1]) ?? null,
    older: link(articles[index + 1]) ?? null,
  };
}
