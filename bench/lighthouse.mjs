// Lighthouse (mobile preset, the package's default) on Debian Chromium for every public page, against the built
// site started here the way `npm start` runs it. Pages come from the site's own sitemap.xml.
// Usage: npm run build && node bench/lighthouse.mjs [path ...]
//   BUILD_DIR (default build), BENCH_PORT (default 3300; Chromium's DevTools port is BENCH_PORT + 1000), CHROMIUM_PATH (default /usr/bin/chromium)
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import lighthouse from "lighthouse";
import { launchServer } from "../tests/helpers/launch-server.mjs";

const port = Number(process.env.BENCH_PORT ?? 3300);
const origin = `http://localhost:${port}`;
const categories = ["performance", "accessibility", "best-practices", "seo"];

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

// Far from the site ports: neighbouring ports are often other local servers.
const debugPort = port + 1000;
const site = await launchServer({ port });
const stopChromium = await startChromium(debugPort);
try {
  const sitemap = await (await fetch(`${origin}/sitemap.xml`)).text();
  const paths = process.argv.length > 2
    ? process.argv.slice(2)
    : [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]).pathname);
  console.log(`${"page".padEnd(24)} perf  a11y  best   seo`);
  for (const pagePath of paths) {
    const audit = () => lighthouse(`${origin}${pagePath}`, { port: debugPort, output: "json", logLevel: "error", onlyCategories: categories });
    // A busy machine now and then makes Lighthouse lose the navigation (NO_NAVSTART): such a run is repeated once.
    let result = await audit();
    if (result?.lhr.runtimeError) result = await audit();
    const scores = categories.map((id) => Math.round((result?.lhr.categories[id]?.score ?? 0) * 100));
    const failing = Object.values(result?.lhr.audits ?? {})
      .filter((audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === "binary")
      .map((audit) => audit.id);
    const metrics = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"]
      .map((id) => `${id.replace(/(^|-)(\w)[a-z]*/g, "$2").toUpperCase()} ${result?.lhr.audits[id]?.displayValue ?? "?"}`);
    const problem = result?.lhr.runtimeError ? `   error: ${result.lhr.runtimeError.code}` : failing.length ? `   failing: ${failing.join(", ")}` : "";
    console.log(`${pagePath.padEnd(24)} ${scores.map((score) => String(score).padStart(4)).join("  ")}   ${metrics.join(", ")}${problem}`);
  }
} finally {
  await stopChromium();
  await site.stop();
}
