// Deterministic size budgets of a build and the pages its server renders, shared by `npm run bench` and the budget
// test (tests/e2e/budgets.test.ts). The build holds no page (decision 1030): the HTML comes from a running server.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

/** First-load JavaScript of `/`, gzip (PRODUCT §9's budget for the home page). */
export const FIRST_LOAD_JS_BUDGET_KB = 115;
/** Each public page's HTML fits TCP's first round trip (10 packets ≈ 14.6 KB), gzip. */
export const HTML_BUDGET_KB = 14;

const gzipKb = (bytes) => zlib.gzipSync(bytes, { level: 9 }).length / 1024;

/** A page's HTML as the server answers it, uncompressed. */
export async function pageHtml(origin, page) {
  const response = await fetch(new URL(page, origin), { headers: { "accept-encoding": "identity" } });
  if (!response.ok) throw new Error(`${page} answered ${response.status}`);
  return response.text();
}

/**
 * Every /assets/*.js the HTML of `/` names (route modules and their imports), each read from the build and
 * gzipped, summed. The route manifest's module is named but not fetched (routes are discovered lazily through
 * /__manifest).
 */
export function firstLoadJs(buildDir, homeHtml) {
  const client = path.join(buildDir, "client");
  const files = [...new Set(homeHtml.match(/\/assets\/[\w.~-]+\.js/g) ?? [])]
    .map((src) => src.slice(1))
    .filter((file) => !/\/manifest-\w+\.js$/.test(file));
  const sizes = files.map((file) => ({ file, kb: gzipKb(fs.readFileSync(path.join(client, file))) }));
  return { files: sizes, totalKb: sizes.reduce((sum, { kb }) => sum + kb, 0) };
}

/** The pages the sitemap lists, with the sign-in screens it leaves out. */
export async function publicPages(origin) {
  const sitemap = await pageHtml(origin, "/sitemap.xml");
  const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => new URL(loc).pathname);
  return [...new Set([...listed, "/login", "/signup"])];
}

/** Each page's HTML as the server answers it, gzip KB, largest first. */
export async function pageSizes(origin, pages) {
  const sizes = [];
  for (const page of pages) sizes.push({ page, kb: gzipKb(Buffer.from(await pageHtml(origin, page))) });
  return sizes.sort((a, b) => b.kb - a.kb);
}
