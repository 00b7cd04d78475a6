// Size budgets: the first-load JavaScript of `/` and the largest public page's HTML (gzip), from the built server.
// Usage: npm run build && node bench/first-load-js.mjs   (BUILD_DIR picks another build folder)
import { launchServer } from "../tests/helpers/launch-server.mjs";
import { FIRST_LOAD_JS_BUDGET_KB, HTML_BUDGET_KB, firstLoadJs, pageHtml, pageSizes, publicPages } from "./budgets.mjs";
import { basePort, buildDir, row, runAlone } from "./lib.mjs";

/** React + React Router alone on a trivial page, measured when the stack was chosen (not this run). */
const TRIVIAL_PAGE_KB = 109;

export async function run() {
  const site = await launchServer({ port: basePort + 20, buildDir });
  try {
    const js = firstLoadJs(buildDir, await pageHtml(site.origin, "/"));
    const [largest] = await pageSizes(site.origin, await publicPages(site.origin));
    return [
      row({
        figure: `first-load JS of / (${js.files.length} files)`, value: js.totalKb, unit: "KB gz",
        reference: { label: "trivial RR page (fixed)", value: TRIVIAL_PAGE_KB }, ratio: js.totalKb / TRIVIAL_PAGE_KB,
        target: `≤ ${FIRST_LOAD_JS_BUDGET_KB} KB`, met: js.totalKb <= FIRST_LOAD_JS_BUDGET_KB,
      }),
      row({
        figure: `largest public page's HTML (${largest.page})`, value: largest.kb, unit: "KB gz",
        target: `≤ ${HTML_BUDGET_KB} KB`, met: largest.kb <= HTML_BUDGET_KB,
      }),
    ];
  } finally {
    await site.stop();
  }
}

await runAlone(import.meta, run);
