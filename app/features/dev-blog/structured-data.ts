import type { PostPage } from "./types";

/**
 * schema.org BlogPosting for a dev-blog post. Unlike the Markdown articles' (content/structured-data.ts) a post
 * has a modification time of its own, tags instead of a category, an optional cover and a person as author.
 */
export function postStructuredData(post: PostPage, url: string, site: { siteUrl: string; productName: string }, teamAuthor: string) {
  return {
    "@context": "https://schema.org",
    "@type": "BlogPosting",
    headline: post.title,
    description: post.summary,
    datePublished: post.publishedAt,
    dateModified: post.updatedAt,
    inLanguage: "zh-Hant-TW",
    keywords: post.tags.join(", "),
    ...(post.coverUrl ? { image: new URL(post.coverUrl, site.siteUrl).href } : {}),
    mainEntityOfPage: url,
    author: post.authorName ? { "@type": "Person", name: post.authorName } : { "@type": "Organization", name: teamAuthor },
    publisher: { "@type": "Organization", name: site.productName, url: site.siteUrl },
  };
}
