import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject } from "vitest";
import { scaledTimeout, timeoutScale } from "~tests/helpers/machine-load";

/**
 * Debian's Chromium headless shell (package chromium-headless-shell, the same build as `chromium`): what Playwright
 * itself runs headless tests in. The full browser in its headless mode cost 42 % more CPU on the same files
 * (decision 005, 2026-11-29 addendum).
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";

// Without the background-networking flags Chromium floods a closed network with refused connections.
const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** `extraArgs` add to the usual flags, e.g. `--host-resolver-rules` to give test host names to loopback. */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: [...chromiumArgs, ...extraArgs] });
}

/**
 * This worker's server (tests/e2e/setup/server.ts): a file runs in one worker, so every helper of the file reaches
 * the same server and the same data.
 */
function e2eServer() {
  const servers = inject("e2eServers");
  return servers[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % servers.length]!;
}
export const baseURL = () => e2eServer().baseURL;
/** The data folder of this worker's server (its SQLite file, its files), for a test that checks what was kept. */
export const serverDataDir = () => e2eServer().dataDir;

const randomOctet = () => 1 + Math.floor(Math.random() * 254);
/**
 * The headers of one simulated family: its own client address, forwarded from loopback (the e2e server trusts
 * loopback as its proxy, tests/e2e/setup/server.ts). The per-address limits then count one family's requests,
 * as on the real site, not those of the whole suite, which all come from this machine. The address stays in
 * 127.0.0.0/8, so the site still names it 本機網路 and the development mailbox still answers.
 */
export const familyHeaders = () => ({ "x-forwarded-for": `127.${randomOctet()}.${randomOctet()}.${randomOctet()}` });

export const desktopViewport = { width: 1280, height: 800 };
export const mobileViewport = { width: 375, height: 740 };
/** The two widths the shell is checked at, for `describe.each`. */
export const shellViewports = [
  ["desktop", desktopViewport],
  ["375 px", mobileViewport],
] as const;

/**
 * Playwright's 30 s for a locator or a navigation, stretched by the load now (the run's figure is read when it
 * starts, before the suite has loaded the machine), never less than the run's.
 */
export function playwrightTimeout() {
  const now = timeoutScale(os.loadavg()[0], os.availableParallelism(), "");
  return scaledTimeout(30_000, Math.max(now, Number(process.env.TEST_TIMEOUT_SCALE) || 1));
}

/** One Chromium per test file; `newPage()` opens an isolated context (own cookies, storage and address). */
export function useBrowser() {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    async newPage(options: BrowserContextOptions = {}): Promise<Page> {
      if (!browser) throw new Error("browser not launched");
      const context = await browser.newContext({ baseURL: baseURL(), locale: "zh-TW", extraHTTPHeaders: familyHeaders(), ...options });
      context.setDefaultTimeout(playwrightTimeout());
      const page = await context.newPage();
      page.on("pageerror", (error) => console.error(`[page error] ${error.message}`));
      return page;
    },
  };
}

/** axe-core with the WCAG 2.0–2.2 A and AA rules must report nothing (on a page with JavaScript: axe runs in it). */
export async function expectNoAxeViolations(page: Page, label = page.url()) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"])
    .analyze();
  const violations = results.violations.map(
    (violation) => `${label}: ${violation.id} (${violation.impact}) at ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
  expect(violations).toEqual([]);
}

/**
 * Saves a screenshot of the page as `<name>.png` in SCREENSHOT_DIR (the `npm run screenshots:*` scripts set it to
 * a docs folder), else in test-results/screenshots/<folder>, or nowhere with `onlyForDocs`.
 */
export async function saveScreenshot(page: Page, name: string, options: { fullPage?: boolean; folder?: string; onlyForDocs?: boolean } = {}) {
  const dir = process.env.SCREENSHOT_DIR ?? (options.onlyForDocs ? undefined : path.join("test-results", "screenshots", options.folder ?? ""));
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: options.fullPage ?? false });
}

/**
 * Chromium's virtual authenticator on this page: passkeys are made and used at once, the user verified. Its
 * `credentialCount` reads how many passkeys the device itself holds now.
 */
export async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return { credentialCount: async () => (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials.length };
}

/** Resolves once React has hydrated the page (the root marks <html data-hydrated>). */
export async function waitForHydration(page: Page) {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/** Opens a path and waits until the page is interactive. */
export async function openPage(page: Page, path: string) {
  const response = await page.goto(path);
  await waitForHydration(page);
  return response;
}

/** Holds every request to `url` until the returned `release()` is called (to see a page while it waits). */
export async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
