// Lighthouse (mobile preset, the package's default: simulated slow 4G and a 4× slower CPU) on Debian Chromium for
// every public page, the median of LIGHTHOUSE_RUNS runs (default 3), against the built site started the way
// `npm start` runs it. Pages come from the site's own sitemap.xml, or from the command line.
// Usage: npm run build && node bench/lighthouse.mjs [path ...]
//   BUILD_DIR (default build), BENCH_PORT (site; Chromium's DevTools port is the next one), CHROMIUM_PATH
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import lighthouse from "lighthouse";
import { launchServer } from "../tests/helpers/launch-server.mjs";
import { basePort, buildDir, median, row, runAlone } from "./lib.mjs";

const categories = ["performance", "accessibility", "best-practices", "seo"];
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);

/** Debian Chromium with a DevTools port for Lighthouse; no launcher package needed. */
async function startChromium(debugPort) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "site-bench-chromium-"));
  const chromium = spawn(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", `--remote-debugging-port=${debugPort}`, `--user-data-dir=${profile}`, "about:blank",
  ], { stdio: "ignore" });
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if ((await fetch(`http://127.0.0.1:${debugPort}/json/version`).catch(() => null))?.ok) {
      return async () => {
        const exited = new Promise((resolve) => chromium.once("exit", resolve));
        chromium.kill("SIGTERM");
        await exited;
        fs.rmSync(profile, { recursive: true, force: true });
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  chromium.kill("SIGKILL");
  throw new Error("Chromium did not open its DevTools port");
}

async function audit(url, debugPort) {
  const options = { port: debugPort, output: "json", logLevel: "error", onlyCategories: categories };
  // A busy machine now and then makes Lighthouse lose the navigation (NO_NAVSTART): such a run is repeated once.
  let result = await lighthouse(url, options);
  if (result?.lhr.runtimeError) result = await lighthouse(url, options);
  const audits = result?.lhr.audits ?? {};
  return {
    scores: categories.map((id) => Math.round((result?.lhr.categories[id]?.score ?? 0) * 100)),
    lcp: audits["largest-contentful-paint"]?.numericValue ?? Infinity,
    tbt: audits["total-blocking-time"]?.numericValue ?? Infinity,
    cls: audits["cumulative-layout-shift"]?.numericValue ?? Infinity,
    // Lighthouse's task breakdown: the longest main-thread task of the load (the simulated, 4× slower CPU).
    longestTask: Math.max(0, ...(audits["long-tasks"]?.details?.items ?? []).map((item) => item.duration ?? 0)),
  };
}

export async function run(paths = []) {
  const site = await launchServer({ port: basePort, buildDir });
  const debugPort = basePort + 1;
  const stopChromium = await startChromium(debugPort).catch(async (error) => {
    await site.stop();
    throw error;
  });
  const rows = [];
  try {
    const sitemap = await (await fetch(`${site.origin}/sitemap.xml`)).text();
    const pages = paths.length ? paths : [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]).pathname);
    for (const page of pages) {
      const results = [];
      for (let index = 0; index < runs; index += 1) results.push(await audit(`${site.origin}${page}`, debugPort));
      const scores = categories.map((_, index) => median(results.map((result) => result.scores[index])));
      const [lcp, tbt, cls, longestTask] = ["lcp", "tbt", "cls", "longestTask"].map((metric) => median(results.map((result) => result[metric])));
      rows.push(row({
        figure: `Lighthouse ${page}: perf (a11y/bp/seo ${scores.slice(1).join("/")}; LCP ${(lcp / 1000).toFixed(2)} s, TBT ${Math.round(tbt)} ms, CLS ${cls.toFixed(2)}, longest task ${Math.round(longestTask)} ms)`,
        value: scores[0], unit: "",
        target: "100 ×4, LCP ≤ 1.0 s, TBT 0, CLS 0",
        met: scores.every((score) => score === 100) && lcp <= 1000 && tbt === 0 && cls === 0,
      }));
    }
  } finally {
    await stopChromium();
    await site.stop();
  }
  return rows;
}

await runAlone(import.meta, () => run(process.argv.slice(2)));
