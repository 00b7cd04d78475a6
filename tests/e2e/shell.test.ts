import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "~/db/connection.server";
import {
  baseURL,
  desktopViewport as desktop,
  expectNoAxeViolations,
  mobileViewport,
  openPage,
  serverDataDir,
  shellViewports,
  useBrowser,
} from "./helpers/browser";

const dialogs = ["分享網站", "追蹤我們", "家長夥伴互助", "合作提案"];

/** The data layer as plain arrays ([command, name, params]), the way gtag pushed them. */
const dataLayer = (page: Page) =>
  page.evaluate(() => (window.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>)));
const eventsNamed = async (page: Page, name: string) => (await dataLayer(page)).filter((entry) => entry[1] === name);

const mainBar = (page: Page) => page.locator('nav[aria-label="主要導覽"]');
// The menu and the user dropdown are <details>: the toggle is the <summary>, "expanded" is the details' `open`.
const menuToggle = (page: Page) => page.locator("summary.site-header__toggle");
const expanded = (toggle: Locator) => toggle.evaluate((summary) => String((summary.parentElement as HTMLDetailsElement).open));

/** Hides the page, which sends the queued events to the first-party endpoint at once; resolves with the answer. */
async function flushBeacon(page: Page) {
  const beacon = page.waitForResponse((response) => response.url().endsWith("/api/analytics"));
  await page.evaluate(() => Object.defineProperty(document, "visibilityState", { value: "hidden" }));
  await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
  return beacon;
}

/** Makes the page tall enough to scroll, as a real screen with content would be. */
const makeScrollable = (page: Page) => page.evaluate(() => (document.body.style.minHeight = "4000px"));

describe.each(shellViewports)("site shell at %s", (_label, viewport) => {
  const browser = useBrowser();
  const isMobile = viewport.width < 500;

  it("takes the scrolled look past 50 px and drops it above", async () => {
    const page = await browser.newPage({ viewport });
    await openPage(page, "/");
    await makeScrollable(page);
    const header = page.locator("header.site-header");
    const isScrolled = () => header.evaluate((element) => element.classList.contains("site-header--scrolled"));
    await page.evaluate(() => window.scrollTo(0, 50));
    await expect.poll(isScrolled).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 120));
    await expect.poll(isScrolled).toBe(true);
    expect(await header.evaluate((element) => getComputedStyle(element).boxShadow)).not.toBe("none");
    await page.evaluate(() => window.scrollTo(0, 20));
    await expect.poll(isScrolled).toBe(false);
    await page.context().close();
  });

  it("highlights 學習資源 on every page below it", async () => {
    const page = await browser.newPage({ viewport });
    await openPage(page, "/learning-resources/morning-routine");
    const current = await mainBar(page).locator('[aria-current="page"]').allTextContents();
    expect(current).toEqual(["學習資源"]);
    await page.context().close();
  });

  it.each(dialogs)("opens %s and closes it by button, overlay and Escape, focus back on its button", async (name) => {
    const page = await browser.newPage({ viewport });
    await openPage(page, "/");
    const opener = page.locator("footer").getByRole("button", { name, exact: true });
    const dialog = page.getByRole("dialog", { name });
    const closeWays: Record<string, () => Promise<void>> = {
      button: () => dialog.getByRole("button", { name: "關閉" }).click(),
      overlay: () => page.mouse.click(5, 5),
      escape: () => page.keyboard.press("Escape"),
    };
    for (const [way, close] of Object.entries(closeWays)) {
      await opener.click();
      await dialog.waitFor();
      expect(await dialog.evaluate((element) => element.contains(document.activeElement)), `focus inside (${way})`).toBe(true);
      // The page behind does not scroll while the dialog is open.
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
      await close();
      await dialog.waitFor({ state: "hidden" });
      expect(await opener.evaluate((element) => element === document.activeElement), `focus returned (${way})`).toBe(true);
    }
    await page.context().close();
  });

  it("keeps Tab inside an open dialog", async () => {
    const page = await browser.newPage({ viewport });
    await openPage(page, "/");
    await page.locator("footer").getByRole("button", { name: "合作提案" }).click();
    const dialog = page.getByRole("dialog", { name: "合作提案" });
    for (let step = 0; step < 4; step += 1) {
      await page.keyboard.press("Tab");
      const inside = await dialog.evaluate((element) => element.contains(document.activeElement) || document.activeElement === document.body);
      expect(inside).toBe(true);
    }
    await page.context().close();
  });

  it("shows 已複製！ after copying the link, for 2 seconds", async () => {
    const page = await browser.newPage({ viewport, permissions: ["clipboard-read", "clipboard-write"] });
    await page.clock.install();
    await openPage(page, "/");
    await page.locator("footer").getByRole("button", { name: "分享網站" }).click();
    // The page's clock stands still from here: only runFor moves it, however slowly a loaded machine answers.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
    await page.getByRole("button", { name: "複製連結" }).click();
    const status = page.getByRole("dialog").getByRole("status");
    await expect.poll(() => status.textContent()).toBe("已複製！");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(baseURL());
    await page.clock.runFor(1_900);
    expect(await status.textContent()).toBe("已複製！");
    await page.clock.runFor(200);
    await expect.poll(() => status.textContent()).toBe("");
    await page.context().close();
  });

  it("opens each share link in a 600×400 pop-up", async () => {
    const page = await browser.newPage({ viewport });
    await page.addInitScript(() => {
      const calls: unknown[][] = [];
      Object.assign(window, { openCalls: calls });
      window.open = (...args: unknown[]) => {
        calls.push(args);
        return null;
      };
    });
    await openPage(page, "/");
    await page.locator("footer").getByRole("button", { name: "分享網站" }).click();
    for (const label of ["Facebook", "Twitter (X)", "LINE"]) await page.getByRole("button", { name: `分享到 ${label}` }).click();
    const calls = await page.evaluate(() => (window as unknown as { openCalls: string[][] }).openCalls);
    expect(calls.map(([url]) => new URL(url!).hostname)).toEqual(["www.facebook.com", "twitter.com", "social-plugins.line.me"]);
    for (const [url, , features] of calls) {
      expect(url).toContain(encodeURIComponent(baseURL()));
      expect(features).toMatch(/(^|,)width=600(,|$)/);
      expect(features).toMatch(/(^|,)height=400(,|$)/);
    }
    expect(await eventsNamed(page, "website_share")).toEqual(
      ["facebook", "twitter", "line"].map((method) => ["event", "website_share", { share_method: method, share_url: baseURL() }]),
    );
    await page.context().close();
  });

  it("is axe-clean with the menu and each dialog open", async () => {
    const page = await browser.newPage({ viewport });
    await openPage(page, "/");
    if (isMobile) {
      await menuToggle(page).click();
      await mainBar(page).waitFor();
      await expectNoAxeViolations(page, "mobile menu open");
      await page.keyboard.press("Escape");
    }
    for (const name of dialogs) {
      await page.locator("footer").getByRole("button", { name, exact: true }).click();
      await page.getByRole("dialog", { name }).waitFor();
      await expectNoAxeViolations(page, `${name} open`);
      await page.keyboard.press("Escape");
      await page.getByRole("dialog", { name }).waitFor({ state: "hidden" });
    }
    await page.context().close();
  });
});

describe("small-screen menu", () => {
  const browser = useBrowser();

  it("opens with the toggle, closes on navigation, on a click outside and on Escape", async () => {
    const page = await browser.newPage({ viewport: mobileViewport });
    await openPage(page, "/");
    const toggle = menuToggle(page);
    expect(await mainBar(page).isVisible()).toBe(false);
    await toggle.click();
    expect(await expanded(toggle)).toBe("true");
    await mainBar(page).getByRole("link", { name: "功能介紹" }).click();
    await page.waitForURL("**/features");
    await expect.poll(() => expanded(toggle)).toBe("false");
    expect(await mainBar(page).isVisible()).toBe(false);

    // A route change by other means than the menu (history back) closes it too.
    await toggle.click();
    await page.goBack();
    await page.waitForURL(`${baseURL()}/`);
    await expect.poll(() => expanded(toggle)).toBe("false");

    await toggle.click();
    // Below the open menu panel: a press outside it.
    await page.mouse.click(mobileViewport.width / 2, mobileViewport.height - 10);
    expect(await expanded(toggle)).toBe("false");

    await toggle.click();
    await page.keyboard.press("Escape");
    expect(await expanded(toggle)).toBe("false");
    expect(await toggle.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.context().close();
  });

  it("is not shown on a wide screen, where the links are always visible", async () => {
    const page = await browser.newPage({ viewport: desktop });
    await openPage(page, "/");
    expect(await menuToggle(page).isVisible()).toBe(false);
    expect(await mainBar(page).isVisible()).toBe(true);
    await page.context().close();
  });
});

describe("user area (logged out)", () => {
  const browser = useBrowser();

  // No APP_URL here: 立即開始 opens sign-up in place, never a placeholder address (docs/configuration.md).
  it("offers 立即開始 (sign-up while no app is configured), 登入 and 註冊", async () => {
    const page = await browser.newPage({ viewport: desktop });
    await openPage(page, "/");
    const start = page.getByRole("banner").getByRole("link", { name: "立即開始" });
    expect(await start.getAttribute("href")).toBe("/signup");
    expect(await start.getAttribute("target")).toBeNull();
    expect(await page.getByRole("banner").getByRole("link", { name: "註冊", exact: true }).getAttribute("href")).toBe("/signup");
    await page.getByRole("link", { name: "登入", exact: true }).click();
    await page.waitForURL("**/login");
    await expect.poll(() => page.locator("footer").count()).toBe(0);
    await page.context().close();
  });
});

describe("analytics events of the original §7", () => {
  const browser = useBrowser();

  it("reach window.dataLayer with their exact parameters", async () => {
    const page = await browser.newPage({ viewport: mobileViewport });
    await openPage(page, "/faq");
    await menuToggle(page).click();
    await mainBar(page).getByRole("link", { name: "免費方案" }).click();
    await page.waitForURL("**/pricing");
    await expect.poll(() => page.title()).toBe("免費方案 | 任務小勇士");
    await page.locator(".site-header__logo").click();
    await page.waitForURL(`${baseURL()}/`);
    await page.locator("footer").getByRole("button", { name: "追蹤我們" }).click();
    // No FACEBOOK_COMMUNITY_URL or FACEBOOK_PAGE_URL on the test site: 追蹤我們 leads to its own 最新消息.
    const community = page.getByRole("link", { name: "前往最新消息" });
    await community.evaluate((link) => link.addEventListener("click", (event) => event.preventDefault()));
    await community.click();

    await expect.poll(() => dataLayer(page)).toEqual([
      ["event", "landing_page_open", {}],
      ["event", "page_view", { page_path: "/faq", page_title: "常見問題 | 任務小勇士", page_location: `${baseURL()}/faq` }],
      ["event", "menu_toggle", { is_open: true }],
      ["event", "nav_click", { destination: "/pricing" }],
      ["event", "page_view", { page_path: "/pricing", page_title: "免費方案 | 任務小勇士", page_location: `${baseURL()}/pricing` }],
      ["event", "logo_click", {}],
      ["event", "page_view", { page_path: "/", page_title: "首頁 | 任務小勇士", page_location: `${baseURL()}/` }],
      ["event", "fanpage_support_click", { source: "follow_us_dialog" }],
    ]);
    await page.context().close();
  });

  it("sends landing_page_open once per visit, not again on reload", async () => {
    const page = await browser.newPage();
    await openPage(page, "/");
    expect(await eventsNamed(page, "landing_page_open")).toHaveLength(1);
    await page.reload();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    expect(await eventsNamed(page, "landing_page_open")).toHaveLength(0);
    expect(await eventsNamed(page, "page_view")).toHaveLength(1);
    // Delivered now rather than on close, where it could land while the next test counts the stored events.
    await flushBeacon(page);
    await page.context().close();
  });

  it("batches the events to the first-party endpoint with sendBeacon, which stores them without a cookie", async () => {
    // The server's own database: the beacon's body is not visible to the browser driver, what was stored is.
    const { db } = openDatabase({ databaseUrl: process.env.E2E_DATABASE_URL || undefined, dataDir: serverDataDir() });
    const storedBefore = new Set((await db.selectFrom("analytics_events").select("id").execute()).map((row) => row.id));
    const page = await browser.newPage();
    await openPage(page, "/");
    await page.locator(".site-header__logo").click();
    const response = await flushBeacon(page);
    expect(response.status()).toBe(202);
    expect(await response.json()).toEqual({ stored: 3 });
    expect(response.headers()["set-cookie"]).toBeUndefined();
    const stored = (await db.selectFrom("analytics_events").select(["id", "name", "params"]).execute())
      .filter((row) => !storedBefore.has(row.id))
      .map((row) => [row.name, JSON.parse(row.params) as unknown]);
    expect(stored.sort()).toEqual([
      ["landing_page_open", {}],
      ["logo_click", {}],
      ["page_view", { page_path: "/", page_title: "首頁 | 任務小勇士", page_location: `${baseURL()}/` }],
    ]);
    await db.destroy();
    await page.context().close();
  });

  it("loads no third-party script when no GA4 measurement id is configured", async () => {
    const html = await (await fetch(`${baseURL()}/`)).text();
    expect(html).not.toContain("googletagmanager");
  });
});

describe("head, manifest and search engines", () => {
  it("gives each page its canonical URL, share tags and theme colour", async () => {
    const html = await (await fetch(`${baseURL()}/features`)).text();
    expect(html).toContain(`<link rel="canonical" href="${baseURL()}/features"/>`);
    expect(html).toContain(`<meta property="og:image" content="${baseURL()}/og-image.png"/>`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image"/>');
    expect(html).toContain('<meta name="theme-color" content="#4a6bff"/>');
    const home = await (await fetch(`${baseURL()}/`)).text();
    expect(home).toContain(`<link rel="canonical" href="${baseURL()}"/>`);
  });

  it("serves the manifest, its icons and the 1200×630 share image", async () => {
    const manifest = await fetch(`${baseURL()}/manifest.webmanifest`);
    expect(manifest.headers.get("content-type")).toContain("application/manifest+json");
    const body = (await manifest.json()) as { name: string; theme_color: string; icons: { src: string }[] };
    expect([body.name, body.theme_color]).toEqual(["任務小勇士", "#4a6bff"]);
    for (const path of [...body.icons.map((icon) => icon.src), "/apple-touch-icon.png", "/og-image.png"]) {
      expect((await fetch(`${baseURL()}${path}`)).status, path).toBe(200);
    }
    const png = new DataView(await (await fetch(`${baseURL()}/og-image.png`)).arrayBuffer());
    expect([png.getUint32(16), png.getUint32(20)]).toEqual([1200, 630]);
  });

  it("lists every public page in sitemap.xml", async () => {
    const response = await fetch(`${baseURL()}/sitemap.xml`);
    expect(response.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    const locations = [...(await response.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    for (const path of ["", "/features", "/pricing", "/faq", "/about", "/tutorial", "/learning-resources", "/privacy", "/terms",
      "/ironman2025", "/task-scheduler", "/blog", "/news", "/wishing-well", "/dev-blog"]) {
      expect(locations).toContain(`${baseURL()}${path}`);
    }
    expect(locations.filter((location) => /\/(login|current-plan|api)/.test(location!))).toEqual([]);
  });

  it("points robots.txt at the sitemap", async () => {
    const response = await fetch(`${baseURL()}/robots.txt`);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await response.text()).toContain(`Sitemap: ${baseURL()}/sitemap.xml`);
  });
});

describe("footer copyright", () => {
  const browser = useBrowser();

  it("shows the browser's year on a page prerendered in an earlier year, without a hydration error", async () => {
    const html = await (await fetch(`${baseURL()}/`)).text();
    const renderedYear = Number(/© (?:<!-- -->)?(\d{4})/.exec(html)?.[1]);
    expect(renderedYear).toBe(new Date().getFullYear());
    // Five seconds into New Year's Day in Taiwan.
    const page = await browser.newPage({ timezoneId: "Asia/Taipei" });
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") problems.push(message.text());
    });
    await page.clock.setFixedTime(new Date(`${renderedYear + 1}-01-01T00:00:05+08:00`));
    await openPage(page, "/");
    await page.locator("footer").getByText(`© ${renderedYear + 1} 任務小勇士`).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
