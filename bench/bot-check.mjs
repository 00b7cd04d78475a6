// The bot check's proof of work on a slow phone: Debian Chromium with its CPU slowed 4× (DevTools' CPU throttling,
// as Lighthouse's mobile preset does) opens /signup, whose form solves a challenge as it shows (BotCheckField), and
// the time from the challenge's answer arriving to the solution in the form's hidden field is measured, RUNS times
// (default 5; each challenge hides its number anywhere below BOT_CHECK_WORK, so single runs vary 1:BOT_CHECK_WORK).
// The rate in hashes/s gives the worst case: BOT_CHECK_WORK hashes. Target (issue 43.5): solved in ≤ 1 s at the median,
// the worst case reported beside it.
// (the test launcher turns the check off; here it is on, as in production)
//   npm run build && node bench/bot-check.mjs      (BUILD_DIR, BENCH_PORT, CHROMIUM_PATH, RUNS, BOT_CHECK_WORK)
import { chromium } from "playwright-core";
import { launchServer } from "../tests/helpers/launch-server.mjs";
import { basePort, buildDir, median, row, runAlone } from "./lib.mjs";

const runs = Number(process.env.RUNS ?? 5);
const slowdown = 4;

export async function run() {
  const work = Number(process.env.BOT_CHECK_WORK ?? 100_000);
  const site = await launchServer({ port: basePort + 40, buildDir, env: { BOT_CHECK: "proof-of-work", BOT_CHECK_WORK: String(work) } });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const solves = [];
  const rates = [];
  const webCryptoRates = [];
  try {
    for (let index = 0; index < runs; index += 1) {
      const context = await browser.newContext({ baseURL: site.origin, locale: "zh-TW" });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: slowdown });
      await page.goto("/signup");
      const field = page.locator('input[data-bot-check="solved"]');
      await field.waitFor({ state: "attached", timeout: 120_000 });
      const solvedAt = await page.evaluate(() => performance.now());
      // The challenge's answer came at responseEnd; what follows is the solver (and one render of the field).
      const challengeAt = await page.evaluate(
        () => performance.getEntriesByType("resource").find((entry) => entry.name.includes("bot-check"))?.responseEnd ?? Number.NaN,
      );
      const answer = JSON.parse(Buffer.from(await field.getAttribute("value"), "base64").toString("utf8"));
      const hashes = Number(answer.solution?.counter ?? answer.solution?.number ?? Number.NaN);
      const ms = solvedAt - challengeAt;
      solves.push(ms);
      if (hashes > 0) rates.push(hashes / (ms / 1000));
      // The same run's reference: Web Crypto's rate in the same slowed page, one awaited digest per attempt as
      // ALTCHA's own web solver does, which the form uses.
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
  } finally {
    await browser.close();
    await site.stop();
  }
  const solve = median(solves);
  const rate = rates.length ? median(rates) : Number.NaN;
  const worst = (work / rate) * 1000;
  const webCrypto = median(webCryptoRates);
  return [
    row({
      figure: `bot check solved on a ${slowdown}× slowed CPU, median of ${runs} (${solves.map((ms) => Math.round(ms)).join(", ")} ms)`, value: solve, unit: "ms",
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
