import type { MetaDescriptor } from "react-router";
import type { PublicEnv } from "~/config/public-env";

interface MetaArgsLike {
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
  location?: { pathname: string };
}

/** The share image every page points at (public/og-image.png, made by scripts/generate-images.mjs). */
export const OG_IMAGE = { path: "/og-image.png", width: 1200, height: 630 } as const;

/** The root loader's browser-safe configuration, as seen from a route's `meta` function. */
export function envFromMatches(args: MetaArgsLike): PublicEnv | undefined {
  const root = args.matches.find((match) => match?.id === "root");
  return (root?.loaderData as { env?: PublicEnv } | undefined)?.env;
}

/** `siteUrl` + path on the bare host, never with a trailing slash (the home page is the origin itself). */
export function canonicalUrl(siteUrl: string, pathname: string): string {
  const origin = siteUrl.replace(/\/+$/, "");
  const path = pathname.replace(/\/+$/, "");
  return `${origin}${path}`;
}

/**
 * `<title>` as `<page> | <product>`, the description, the canonical URL and the Open Graph / Twitter card tags.
 * React Router uses the deepest route's meta alone, so every page's tags are built here in full.
 */
export function pageMeta(args: MetaArgsLike, page: { title: string; description?: string }): MetaDescriptor[] {
  const env = envFromMatches(args);
  const productName = env?.productName ?? "";
  const title = productName ? `${page.title} | ${productName}` : page.title;
  const description = page.description ? [{ name: "description", content: page.description }] : [];
  if (!env || !args.location) return [{ title }, ...description];

  const url = canonicalUrl(env.siteUrl, args.location.pathname);
  const image = canonicalUrl(env.siteUrl, OG_IMAGE.path);
  const summary = page.description ?? productName;
  return [
    { title },
    ...description,
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: productName },
    { property: "og:locale", content: "zh_TW" },
    { property: "og:title", content: title },
    { property: "og:description", content: summary },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { property: "og:image:width", content: String(OG_IMAGE.width) },
    { property: "og:image:height", content: String(OG_IMAGE.height) },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: summary },
    { name: "twitter:image", content: image },
  ];
}

/** The not-found screen's tags: its title and description, and never indexed. */
export function notFoundMeta(args: MetaArgsLike): MetaDescriptor[] {
  return [
    ...pageMeta(args, { title: "找不到頁面", description: "你要找的頁面不存在或已移除。" }),
    { name: "robots", content: "noindex" },
  ];
}
