import type { MetaDescriptor } from "react-router";
import { envFromMatches, pageMeta } from "~/features/seo/page-meta";
import { collectionLabels, listTitle } from "./collection-labels";
import { articleStructuredData } from "./structured-data";
import type { PageIntro } from "~content/types";
import type { ArticleDetail, ArticleListPage, CollectionName } from "./article-types";

type MetaArgs = Parameters<typeof pageMeta>[0];
const noindex: MetaDescriptor = { name: "robots", content: "noindex" };

/** `<title>` and description of a list screen; a 404 list page is kept out of search results. */
export function articleListMeta(args: MetaArgs, loaderData: { intro: PageIntro; listing: ArticleListPage | null } | undefined) {
  if (!loaderData) return pageMeta(args, { title: "找不到頁面" });
  const { intro, listing } = loaderData;
  const title = listing ? listTitle(intro.title, listing.category, listing.page) : intro.title;
  return [...pageMeta(args, { title, description: intro.description }), ...(listing ? [] : [noindex])];
}

/** `<title>`, description and structured data of a detail screen. */
export function articleMeta(args: MetaArgs, collection: CollectionName, article: ArticleDetail | null | undefined) {
  const labels = collectionLabels[collection];
  if (!article) return [...pageMeta(args, { title: labels.notFound }), noindex];
  const env = envFromMatches(args);
  const structuredData = env
    ? [{ "script:ld+json": articleStructuredData(labels.schemaType, article, new URL(`${labels.basePath}/${article.slug}`, env.siteUrl).href, env) }]
    : [];
  return [...pageMeta(args, { title: article.title, description: article.summary }), ...structuredData];
}
