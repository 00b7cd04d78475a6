import { getEnv } from "~/config/env.server";
import { sitemapPaths, sitemapXml } from "~/features/seo/sitemap.server";

export async function loader() {
  const xml = sitemapXml(getEnv().SITE_URL, await sitemapPaths());
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
