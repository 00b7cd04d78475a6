import fs from "node:fs";
import path from "node:path";

/**
 * The SITE_URL a build's prerendered pages were made with (their canonical link), or null when the build has no
 * prerendered home page. Those pages are files: their canonical, og:url and og:image keep that origin whatever
 * SITE_URL the server later starts with.
 */
export function builtSiteUrl(buildDir: string): string | null {
  let html: string;
  try {
    html = fs.readFileSync(path.join(buildDir, "client", "index.html"), "utf8");
  } catch {
    return null;
  }
  const href = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
  if (!href) return null;
  try {
    return new URL(href).origin;
  } catch {
    return null;
  }
}

/** The loud start-up warning when the running SITE_URL is not the one the prerendered pages carry (else null). */
export function siteUrlMismatch(buildDir: string, siteUrl: string): string | null {
  const built = builtSiteUrl(buildDir);
  if (!built || built === new URL(siteUrl).origin) return null;
  return (
    `預先產生的頁面是以 SITE_URL=${built} 建置的，但伺服器現在的 SITE_URL=${siteUrl}：` +
    `這些頁面的 canonical、og:url 與 og:image 會指向 ${built}。請用相同的 SITE_URL 重新執行 npm run build。`
  );
}
