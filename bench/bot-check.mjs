// The bot check's proof of work on a slow phone: Debian Chromium under Lighthouse's mobile throttling (DevTools'
// CPU slowed 4× and its "slow 4G" network: 562.5 ms a request, 1.47 Mbit/s down, 675 kbit/s up, as Lighthouse's
// `devtools` throttling sets them) opens /signup and /login/phone, whose forms start solving a challenge as they
// hydrate (useBotCheck), RUNS times each (default 5; each challenge hides its number anywhere below BOT_CHECK_WORK, so
// single runs vary 1:BOT_CHECK_WORK). Measured in the page: first contentful paint → solution in the form's hidden
// field (what a parent waits at most, if they tap at once), beside first paint → hydrated (the page's own readiness,
// the reference of the same run), and the challenge's arrival → solved (the solver alone, its chunk included).
// The solver's attempts/s against Web Crypto's in the same slowed page give the worst case: BOT_CHECK_WORK hashes.
// Target (issue 43.5): solved in ≤ 1 s after the challenge at the median; (issue 41.1) solved before a parent
// could have filled the form, so a parent never waits. NETWORK=none leaves the network unthrottled.
// (the test launcher turns the check off; here it is on, as in production)
//   npm run build && node bench/bot-check.mjs      (BUILD_DIR, BENCH_PORT, CHROMIUM_PATH, RUNS, BOT_CHECK_WORK, NETWORK)
import { chromium } from "playwright-core";
import { launchServer } from "../tests/helpers/launch-server.mjs";
import { basePort, buildDir, median, row, runAlone } from "./lib.mjs";

const runs = Number(process.env.RUNS ?? 5);
const slowdown = 4;
const paths = ["/signup", "/login/phone"];
// Lighthouse's mobile preset (constants.js: mobileSlow4G with DEVTOOLS_RTT_ADJUSTMENT_FACTOR 3.75 and
// DEVTOOLS_THROUGHPUT_ADJUSTMENT_FACTOR 0.9), in the units of CDP's Network.emulateNetworkConditions.
const slow4G = { offline: false, latency: 150 * 3.75, downloadThroughput: (1638.4 * 0.9 * 1024) / 8, uploadThroughput: (750 * 0.9 * 1024) / 8 };

// In the page before its scripts: when <html data-hydrated> appears and when the field holds a solution.
const marks = () => {
  const seen = { hydrated: Number.NaN, solved: Number.NaN };
  globalThis.__botCheckMarks = seen;
  const { document, MutationObserver } = globalThis;
  new MutationObserver(() => {
    if (Number.isNaN(seen.hydrated) && document.documentElement.hasAttribute("data-hydrated")) seen.hydrated = performance.now();
    if (Number.isNaN(seen.solved) && document.querySelector('input[name="botCheck"][data-bot-check="solved"]')) seen.solved = performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-hydrated", "data-bot-check"] });
};

export async function run() {
  const work = Number(process.env.BOT_CHECK_WORK ?? 30_000);
  const network = process.env.NETWORK === "none" ? null : slow4G;
  const site = await launchServer({ port: basePort + 40, buildDir, env: { BOT_CHECK: "proof-of-work", BOT_CHECK_WORK: String(work) } });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const byPath = Object.fromEntries(paths.map((path) => [path, { solved: [], hydrated: [] }]));
  const solves = [];
  const rates = [];
  const webCryptoRates = [];
  try {
    for (let index = 0; index < runs; index += 1) {
      for (const path of paths) {
        const context = await browser.newContext({ baseURL: site.origin, locale: "zh-TW" });
        await context.addInitScript(marks);
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send("Emulation.setCPUThrottlingRate", { rate: slowdown });
        if (network) {
          await cdp.send("Network.enable");
          await cdp.send("Network.emulateNetworkConditions", network);
        }
        await page.goto(path);
        const field = page.locator('input[data-bot-check="solved"]');
        await field.waitFor({ state: "attached", timeout: 120_000 });
        const times = await page.evaluate(() => ({
          ...globalThis.__botCheckMarks,
          paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
          // The challenge's answer came at responseEnd; what follows is the solver (and one render of the field).
          challenge: performance.getEntriesByType("resource").find((entry) => entry.name.includes("/bot-check/challenge"))?.responseEnd ?? Number.NaN,
        }));
        byPath[path].solved.push(times.solved - times.paint);
        byPath[path].hydrated.push(times.hydrated - times.paint);
        const answer = JSON.parse(Buffer.from(await field.getAttribute("value"), "base64").toString("utf8"));
        const hashes = Number(answer.solution?.counter ?? answer.solution?.number ?? Number.NaN);
        const ms = times.solved - times.challenge;
        solves.push(ms);
        if (hashes > 0) rates.push(hashes / (ms / 1000));
        // The same run's reference: Web Crypto's rate in the same slowed page, one awaited digest per attempt as
        // ALTCHA's own web solver does.
        webCryptoRates.push(await page.evaluate(async () => {
          const data = new Uint8Array(48);
          const started = performance.now();
          for (let attempt = 0; attempt < 2000; attempt++) {
            data[47] = attempt & 255;
            await globalThis.crypto.subtle.digest("SHA-256", data);
          }
          return 2000 / ((performance.now() - started) / 1000);
        }));
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await site.stop();
  }
  const list = (values) => values.map((ms) => Math.round(ms)).join(", ");
  const solve = median(solves);
  const rate = rates.length ? median(rates) : Number.NaN;
  const worst = (work / rate) * 1000;
  const webCrypto = median(webCryptoRates);
  const throttling = `${slowdown}× CPU${network ? " + slow 4G" : ""}`;
  return [
    ...paths.map((path) =>
      row({
        figure: `${path}: first paint → solved, ${throttling}, median of ${runs} (${list(byPath[path].solved)} ms)`, value: median(byPath[path].solved), unit: "ms",
        reference: { label: `first paint → hydrated (${list(byPath[path].hydrated)} ms)`, value: median(byPath[path].hydrated) },
        ratio: median(byPath[path].solved) / median(byPath[path].hydrated),
        target: "≤ hydrated + 1,000 ms", met: median(byPath[path].solved) <= median(byPath[path].hydrated) + 1000,
      }),
    ),
    row({
      figure: `challenge → solved, ${throttling}, median of ${solves.length} (${list(solves)} ms)`, value: solve, unit: "ms",
      reference: { label: `worst case (${work.toLocaleString("en")} hashes at ${Math.round(rate).toLocaleString("en")}/s)`, value: worst },
      target: "≤ 1,000 ms at the median", met: solve <= 1000,
    }),
    row({
      figure: `the solver's attempts/s on a ${slowdown}× slowed CPU (worst case ${Math.round(worst).toLocaleString("en")} ms)`, value: rate, unit: "/s",
      reference: { label: "Web Crypto, one awaited digest each", value: webCrypto }, ratio: rate / webCrypto,
      target: "faster than Web Crypto's", met: rate > webCrypto,
    }),
  ];
}

await runAlone(import.meta, run);
