import { getEnv } from "~/config/env.server";
import { postStore } from "~/features/dev-blog/blog-service.server";
import { publishedPostPaths } from "~/features/dev-blog/feed.server";
import { sitemapPaths, sitemapXml } from "~/features/seo/sitemap.server";

export async function loader() {
  const paths = [...sitemapPaths(), ...(await publishedPostPaths(postStore()))];
  const xml = sitemapXml(getEnv().SITE_URL, paths);
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
