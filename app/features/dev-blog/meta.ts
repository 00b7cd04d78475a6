import type { MetaDescriptor } from "react-router";
import { canonicalUrl, envFromMatches, pageMeta } from "~/features/seo/page-meta";
import { feedHref, postHref } from "./links";
import { teamAuthor } from "./post-view";
import { postStructuredData } from "./structured-data";
import type { PostListPage, PostPage } from "./types";

type MetaArgs = Parameters<typeof pageMeta>[0];
const noindex: MetaDescriptor = { name: "robots", content: "noindex" };

function feedLink(args: MetaArgs): MetaDescriptor[] {
  const env = envFromMatches(args);
  const href = env ? canonicalUrl(env.siteUrl, feedHref) : feedHref;
  return [{ tagName: "link", rel: "alternate", type: "application/atom+xml", title: "開發日誌", href }];
}

/** The list's title names the tag and page; a 404 page is kept out of search results. */
export function postListMeta(args: MetaArgs, loaderData: { texts: { list: { title: string; description: string } }; listing: PostListPage | null } | undefined) {
  if (!loaderData?.listing) return [...pageMeta(args, { title: "找不到這一頁" }), noindex];
  const { texts, listing } = loaderData;
  const parts = [texts.list.title, listing.tag && `#${listing.tag}`].filter(Boolean).join(" ");
  const title = listing.page > 1 ? `${parts}（第 ${listing.page} 頁）` : parts;
  return [...pageMeta(args, { title, description: texts.list.description }), ...feedLink(args)];
}

/** A post's title, description and BlogPosting data; drafts and 404s are never indexed. */
export function postMeta(args: MetaArgs, loaderData: { post: PostPage | null; notFoundTitle: string | null } | undefined) {
  const post = loaderData?.post;
  if (!post) return [...pageMeta(args, { title: loaderData?.notFoundTitle ?? "找不到這篇開發日誌" }), noindex];
  const env = envFromMatches(args);
  const structuredData = env ? [{ "script:ld+json": postStructuredData(post, canonicalUrl(env.siteUrl, postHref(post.id)), env, teamAuthor) }] : [];
  return [
    ...pageMeta(args, { title: post.title, description: post.summary }),
    ...structuredData,
    ...feedLink(args),
    ...(post.status === "published" ? [] : [noindex]),
  ];
}
