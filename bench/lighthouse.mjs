// Lighthouse (mobile preset, the package's default: simulated slow 4G and a 4× slower CPU) on Debian Chromium for
// every public page, the median of LIGHTHOUSE_RUNS runs (default 3), against the built site started the way
// `npm start` runs it. Pages come from the site's own sitemap.xml, or from the command line.
// Usage: npm run build && node bench/lighthouse.mjs [path ...]
//   BUILD_DIR (default build), BENCH_PORT (site; Chromium's DevTools port is the next one), CHROMIUM_PATH
//   BUILD_DIRS=build-a,build-b: each page is audited on every build in turn (A/B in the same minutes; each build's
//   site on its own port from BENCH_PORT + 2 up), and each build's row names the first build's figures beside it.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import lighthouse from "lighthouse";
import { launchServer } from "../tests/helpers/launch-server.mjs";
import { basePort, buildDir, median, row, runAlone } from "./lib.mjs";

const categories = ["performance", "accessibility", "best-practices", "seo"];
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const builds = (process.env.BUILD_DIRS ?? buildDir).split(",");

/** Debian Chromium with a DevTools port for Lighthouse; no launcher package needed. */
async function startChromium(debugPort) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "site-bench-chromium-"));
  const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  // LIGHTHOUSE_NICE (e.g. -10, as root) runs Chromium at a higher scheduling priority: on a shared machine the
  // neighbours' load otherwise stretches the page's tasks, and Lighthouse simulates from their wall time.
  const nice = process.env.LIGHTHOUSE_NICE ? ["nice", "-n", process.env.LIGHTHOUSE_NICE, chromiumPath] : [chromiumPath];
  const chromium = spawn(nice[0], [...nice.slice(1),
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
  const longTasks = audits["long-tasks"]?.details?.items ?? [];
  const fcp = audits["first-contentful-paint"]?.numericValue ?? 0;
  return {
    scores: categories.map((id) => Math.round((result?.lhr.categories[id]?.score ?? 0) * 100)),
    lcp: audits["largest-contentful-paint"]?.numericValue ?? Infinity,
    tbt: audits["total-blocking-time"]?.numericValue ?? Infinity,
    cls: audits["cumulative-layout-shift"]?.numericValue ?? Infinity,
    // Lighthouse's task breakdown: the longest main-thread task of the load (the simulated, 4× slower CPU)…
    longestTask: Math.max(0, ...longTasks.map((item) => item.duration ?? 0)),
    // …and of those that start after the first contentful paint (TBT counts only these; 0: none of 50 ms or more).
    longestAfterPaint: Math.max(0, ...longTasks.filter((item) => item.startTime >= fcp).map((item) => item.duration ?? 0)),
    // The same after the observed first paint, from the trace's thread time × 4 rather than its wall time: what the
    // page costs the CPU, whatever the neighbours on a shared machine take (Lighthouse simulates from wall time).
    longestCpuAfterPaint: longestTaskCpuAfterPaint(result?.artifacts.Trace) * slowdown,
  };
}

const slowdown = 4; // Lighthouse's mobile preset: a 4× slower CPU

/** The most thread time (ms) of one main-thread task of the page's renderer after its first contentful paint. */
function longestTaskCpuAfterPaint(trace) {
  const events = trace?.traceEvents ?? [];
  const start = events.find((event) => event.name === "navigationStart" && event.args?.data?.isLoadingMainFrame && /^https?:/.test(event.args.data.documentLoaderURL ?? ""));
  if (!start) return Infinity;
  const onMain = (event) => event.pid === start.pid && event.tid === start.tid;
  const paint = events.find((event) => event.name === "firstContentfulPaint" && onMain(event) && event.ts >= start.ts);
  if (!paint) return Infinity;
  const tasks = events.filter((event) => event.name === "RunTask" && event.ph === "X" && onMain(event) && event.ts >= paint.ts);
  return Math.max(0, ...tasks.map((task) => (task.tdur ?? task.dur) / 1000));
}

export async function run(paths = []) {
  const debugPort = basePort + 1;
  const sites = [];
  let stopChromium = async () => {};
  const rows = [];
  try {
    for (const [index, build] of builds.entries()) {
      sites.push(await launchServer({ port: index === 0 ? basePort : debugPort + index, buildDir: build }));
    }
    stopChromium = await startChromium(debugPort);
    const sitemap = await (await fetch(`${sites[0].origin}/sitemap.xml`)).text();
    const pages = paths.length ? paths : [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]).pathname);
    for (const page of pages) {
      const results = sites.map(() => []);
      for (let index = 0; index < runs; index += 1) {
        for (const [build, site] of sites.entries()) results[build].push(await audit(`${site.origin}${page}`, debugPort));
      }
      const figures = results.map((buildResults) => {
        const of = (metric) => median(buildResults.map((result) => result[metric]));
        return { scores: categories.map((_, index) => median(buildResults.map((result) => result.scores[index]))), ...Object.fromEntries(metrics.map((metric) => [metric, of(metric)])) };
      });
      for (const [build, { scores, lcp, tbt, cls, longestTask, longestAfterPaint, longestCpuAfterPaint }] of figures.entries()) {
        rows.push(row({
          figure:
            `Lighthouse ${page}${builds.length > 1 ? ` (${builds[build]})` : ""}: perf (a11y/bp/seo ${scores.slice(1).join("/")}; LCP ${(lcp / 1000).toFixed(2)} s, ` +
            `TBT ${Math.round(tbt)} ms, CLS ${cls.toFixed(2)}, longest task ${Math.round(longestTask)} ms, after first paint ${Math.round(longestAfterPaint) || "none ≥ 50"} ms, ` +
            `its CPU × 4 ${Math.round(longestCpuAfterPaint)} ms)`,
          value: scores[0], unit: "",
          reference: build > 0 ? { label: `${builds[0]}: perf`, value: figures[0].scores[0] } : undefined,
          target: "100 ×4, LCP ≤ 1.0 s, TBT 0, CLS 0, no task ≥ 50 ms after first paint",
          met: scores.every((score) => score === 100) && lcp <= 1000 && tbt === 0 && cls === 0 && longestAfterPaint === 0,
        }));
      }
    }
  } finally {
    await stopChromium();
    for (const site of sites) await site.stop();
  }
  return rows;
}

const metrics = ["lcp", "tbt", "cls", "longestTask", "longestAfterPaint", "longestCpuAfterPaint"];

await runAlone(import.meta, () => run(process.argv.slice(2)));
