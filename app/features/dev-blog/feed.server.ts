import { Feed } from "feed";
import { escapeHtml } from "~/lib/escape-html";
import { canonicalUrl } from "~/features/seo/page-meta";
import { devBlogPath, feedHref, postHref } from "./links";
import type { PostStore } from "./posts.server";
import { teamAuthor } from "./post-view";

export const FEED_SIZE = 20;

/** `feed` escapes only quotes in attribute values; `&`, `<` and `>` of a tag are escaped here (valid XML). */
const attributeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Characters XML 1.0 does not allow anywhere (C0 controls other than tab and newlines, lone surrogates, U+FFFE/F):
 * `feed` escapes markup but not these, so one editor name holding U+0007 would make the whole feed unreadable.
 */
// eslint-disable-next-line no-control-regex -- control characters are what is removed
const notXmlCharacters = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Site-relative addresses in a post's (already sanitised) HTML made absolute, since feed readers have no page. */
const absolutise = (html: string, siteUrl: string) => html.replace(/ (src|href)="\/(?!\/)/g, ` $1="${siteUrl}/`);

/** The Atom feed of the newest published posts (one query). */
export async function devBlogFeed(store: PostStore, site: { siteUrl: string; productName: string; title: string; description: string }) {
  const posts = await store.latestPublished(FEED_SIZE);
  const feed = new Feed({
    id: canonicalUrl(site.siteUrl, devBlogPath),
    link: canonicalUrl(site.siteUrl, devBlogPath),
    title: `${site.title} | ${site.productName}`,
    description: site.description,
    language: "zh-Hant-TW",
    updated: posts.length ? new Date(posts.reduce((latest, post) => (post.updatedAt > latest ? post.updatedAt : latest), "")) : new Date(),
    feedLinks: { atom: canonicalUrl(site.siteUrl, feedHref) },
    copyright: `© ${site.productName}`,
    generator: site.productName,
  });
  for (const post of posts) {
    const link = canonicalUrl(site.siteUrl, postHref(post.id));
    feed.addItem({
      id: link,
      link,
      // Atom writes these as type="html": escaped, a title shows as the text it is in every reader.
      title: escapeHtml(post.title),
      description: escapeHtml(post.summary),
      content: absolutise(post.html, site.siteUrl),
      author: [{ name: post.authorName ?? teamAuthor }],
      date: new Date(post.updatedAt),
      published: new Date(post.publishedAt ?? post.updatedAt),
      category: post.tags.map((tag) => ({ name: attributeText(tag), term: attributeText(tag) })),
    });
  }
  return feed.atom1().replace(notXmlCharacters, "");
}

/** Every published post's address, for the sitemap. */
export async function publishedPostPaths(store: PostStore): Promise<string[]> {
  return (await store.publishedIds()).map(postHref);
}
