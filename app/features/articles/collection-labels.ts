import type { CollectionName } from "./article-types";

/** How each Markdown collection is addressed and named on screen. */
export const collectionLabels = {
  blog: { basePath: "/blog", name: "家長學堂", notFound: "找不到這篇文章", schemaType: "BlogPosting" },
  news: { basePath: "/news", name: "最新消息", notFound: "找不到這則消息", schemaType: "NewsArticle" },
} as const satisfies Record<CollectionName, { basePath: string; name: string; notFound: string; schemaType: string }>;

/** A list address with its filter and page, leaving out the defaults. */
export function listHref(name: CollectionName, options: { category?: string | null; page?: number }): string {
  const params = new URLSearchParams();
  if (options.category) params.set("category", options.category);
  if (options.page && options.page > 1) params.set("page", String(options.page));
  const query = params.toString();
  return `${collectionLabels[name].basePath}${query ? `?${query}` : ""}`;
}

/** The list title with its category and page, so every list address has its own `<title>`. */
export function listTitle(title: string, category: string | null, page: number): string {
  return `${title}${category ? `：${category}` : ""}${page > 1 ? `（第 ${page} 頁）` : ""}`;
}
