import { describe, expect, it } from "vitest";
import { FIRST_LOAD_JS_BUDGET_KB, HTML_BUDGET_KB, firstLoadJs, prerenderedHtml } from "~bench/budgets.mjs";

// Deterministic byte budgets of the build under test (timings belong to `npm run bench`, never to tests).
const buildDir = process.env.BUILD_DIR || "build-test";

describe("size budgets of the build", () => {
  it(`keeps the first-load JavaScript of / within ${FIRST_LOAD_JS_BUDGET_KB} KB gzip`, () => {
    const { totalKb, files } = firstLoadJs(buildDir);
    expect(files.length).toBeGreaterThan(0);
    expect(totalKb).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET_KB);
  });

  it(`keeps every prerendered page's HTML within ${HTML_BUDGET_KB} KB gzip`, () => {
    const pages = prerenderedHtml(buildDir);
    expect(pages.map(({ page }) => page)).toEqual(expect.arrayContaining(["/", "/blog", "/login", "/signup"]));
    expect(pages.filter(({ kb }) => kb > HTML_BUDGET_KB)).toEqual([]);
  });
});
