import { describe, expect, it } from "vitest";
import { FIRST_LOAD_JS_BUDGET_KB, HTML_BUDGET_KB, firstLoadJs, pageHtml, pageSizes } from "~bench/budgets.mjs";
import { prerenderedPaths } from "~/prerendered-paths";
import { baseURL } from "./helpers/browser";

// Deterministic byte budgets of the build under test and the pages its server renders (timings belong to
// `npm run bench`, never to tests).
const buildDir = process.env.BUILD_DIR || "build-test";

describe("size budgets of the build", () => {
  it(`keeps the first-load JavaScript of / within ${FIRST_LOAD_JS_BUDGET_KB} KB gzip`, async () => {
    const { totalKb, files } = firstLoadJs(buildDir, await pageHtml(baseURL(), "/"));
    expect(files.length).toBeGreaterThan(0);
    expect(totalKb).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET_KB);
  });

  it(`keeps every page rendered at start-up's HTML within ${HTML_BUDGET_KB} KB gzip`, async () => {
    const pages = await pageSizes(baseURL(), await prerenderedPaths());
    expect(pages.map(({ page }) => page)).toEqual(expect.arrayContaining(["/", "/blog", "/login", "/signup"]));
    expect(pages.filter(({ kb }) => kb > HTML_BUDGET_KB)).toEqual([]);
  });
});
