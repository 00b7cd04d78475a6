import { listedPaths } from "~/prerendered-paths";
import { canonicalUrl } from "./page-meta";

/** The sitemap's pages: the screens the route map lists (app/lib/route-map.ts), each once. */
export function sitemapPaths(): string[] {
  return [...new Set(listedPaths())];
}

const xmlEntities: Record<string, string> = { "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" };
const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => xmlEntities[char] ?? char);

export function sitemapXml(siteUrl: string, paths: readonly string[]): string {
  const urls = paths.map((path) => `  <url><loc>${escapeXml(canonicalUrl(siteUrl, path))}</loc></url>`);
  const head = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">';
  return `${head}\n${urls.join("\n")}\n</urlset>\n`;
}

/** Everything may be crawled except the API and the sign-in self-test; the sitemap is named in full. */
export function robotsTxt(siteUrl: string): string {
  const rules = ["User-agent: *", "Allow: /", "Disallow: /api/", "Disallow: /firebase-test"];
  return `${rules.join("\n")}\n\nSitemap: ${canonicalUrl(siteUrl, "/sitemap.xml")}\n`;
}
