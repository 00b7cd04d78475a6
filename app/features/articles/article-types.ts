/** Shapes of the Markdown articles (content/blog, content/news) as the pipeline hands them to the screens. */
import type { Image } from "~content/types";

export type CollectionName = "blog" | "news";

export interface ArticleSummary {
  slug: string;
  title: string;
  date: string;
  summary: string;
  category: string;
  cover: Image;
  author: string;
}

export interface ArticleLink {
  slug: string;
  title: string;
}

export interface ArticleDetail extends ArticleSummary {
  html: string;
  readingMinutes: number;
  newer: ArticleLink | null;
  older: ArticleLink | null;
}

export interface ArticleListPage {
  items: ArticleSummary[];
  page: number;
  pageCount: number;
  categories: string[];
  category: string | null;
}
