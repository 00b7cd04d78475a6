// Size budgets of the build: the first-load JavaScript of `/` and the largest prerendered page's HTML (gzip).
// Usage: npm run build && node bench/first-load-js.mjs   (BUILD_DIR picks another build folder)
import { FIRST_LOAD_JS_BUDGET_KB, HTML_BUDGET_KB, firstLoadJs, prerenderedHtml } from "./budgets.mjs";
import { buildDir, row, runAlone } from "./lib.mjs";

/** React + React Router alone on a trivial page, measured when the stack was chosen (not this run). */
const TRIVIAL_PAGE_KB = 109;

export async function run() {
  const js = firstLoadJs(buildDir);
  const [largest] = prerenderedHtml(buildDir);
  return [
    row({
      figure: `first-load JS of / (${js.files.length} files)`, value: js.totalKb, unit: "KB gz",
      reference: { label: "trivial RR page (fixed)", value: TRIVIAL_PAGE_KB }, ratio: js.totalKb / TRIVIAL_PAGE_KB,
      target: `≤ ${FIRST_LOAD_JS_BUDGET_KB} KB`, met: js.totalKb <= FIRST_LOAD_JS_BUDGET_KB,
    }),
    row({
      figure: `largest prerendered HTML (${largest.page})`, value: largest.kb, unit: "KB gz",
      target: `≤ ${HTML_BUDGET_KB} KB`, met: largest.kb <= HTML_BUDGET_KB,
    }),
  ];
}

await runAlone(import.meta, run);
