// Deterministic size budgets of a build, shared by `npm run bench` and the budget test (tests/e2e/budgets.test.ts).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

/** First-load JavaScript of `/`, gzip (PRODUCT §9's budget for the home page). */
export const FIRST_LOAD_JS_BUDGET_KB = 120;
/** Each prerendered page's HTML fits TCP's first round trip (10 packets ≈ 14.6 KB), gzip. */
export const HTML_BUDGET_KB = 14;

const gzipKb = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length / 1024;

/**
 * Every /assets/*.js the HTML of `/` names (route modules and their imports), each gzipped, summed. The route
 * manifest's module is named but not fetched (routes are discovered lazily through /__manifest).
 */
export function firstLoadJs(buildDir) {
  const client = path.join(buildDir, "client");
  const html = fs.readFileSync(path.join(client, "index.html"), "utf8");
  const files = [...new Set(html.match(/\/assets\/[\w.~-]+\.js/g) ?? [])]
    .map((src) => src.slice(1))
    .filter((file) => !/\/manifest-\w+\.js$/.test(file));
  const sizes = files.map((file) => ({ file, kb: gzipKb(path.join(client, file)) }));
  return { files: sizes, totalKb: sizes.reduce((sum, { kb }) => sum + kb, 0) };
}

/** Every prerendered page's HTML, gzip KB, largest first. */
export function prerenderedHtml(buildDir) {
  const client = path.join(buildDir, "client");
  return fs
    .readdirSync(client, { recursive: true })
    .filter((file) => String(file).endsWith("index.html"))
    .map((file) => ({ page: `/${path.dirname(String(file))}`.replace(/\/\.$/, "/"), kb: gzipKb(path.join(client, String(file))) }))
    .sort((a, b) => b.kb - a.kb);
}
