import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectNoAxeViolations, openPage, useBrowser } from "./helpers/browser";

/** Each content screen with its heading and a sentence of its main text. */
const screens = [
  { path: "/", heading: "讓孩子在遊戲中，養成獨立與負責的好習慣", text: "家長設定任務，孩子完成任務獲得點數與星星" },
  { path: "/features", heading: "功能介紹", text: "孩子開啟 App 就看到今天要完成的任務" },
  { path: "/pricing", heading: "免費方案", text: "推出前會先公告內容與價格" },
  { path: "/faq", heading: "常見問題", text: "可以不註冊就先試用嗎？" },
  { path: "/about", heading: "關於我們", text: "我們重視的事" },
  { path: "/tutorial", heading: "使用教學", text: "設定任務卡與時段" },
  { path: "/learning-resources", heading: "學習資源", text: "適齡家務" },
  { path: "/learning-resources/screen-time", heading: "螢幕時間", text: "與其禁止，不如約定" },
  { path: "/blog", heading: "家長學堂", text: "手足之間的公平" },
  { path: "/blog/rewards-without-bribery", heading: "獎勵不等於收買：用好點數與獎勵的方法", text: "獎勵和收買的差別" },
  { path: "/news", heading: "最新消息", text: "訪客模式上線" },
  { path: "/news/free-task-scheduler", heading: "免費任務表工具上線：不用登入，印出來就能用", text: "資料留在你的裝置" },
  { path: "/privacy", heading: "隱私權政策", text: "依個資法第 3 條" },
  { path: "/terms", heading: "服務條款", text: "本條款以中華民國法律為準據法" },
  { path: "/ironman2025", heading: "技術文章", text: "選擇 React Router 7 框架模式" },
];

const structuredData = (page: Page) =>
  page.locator('script[type="application/ld+json"]').evaluateAll((scripts) => scripts.map((script) => JSON.parse(script.textContent ?? "")));

const cardTitles = (page: Page) => page.locator(".card-grid h2").allTextContents();

describe("content screens without JavaScript", () => {
  const browser = useBrowser();

  it("send their heading and main text in the HTML", async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    for (const screen of screens) {
      const response = await page.goto(screen.path);
      expect(response?.status(), screen.path).toBe(200);
      expect(await page.locator("h1").textContent(), screen.path).toBe(screen.heading);
      expect(await page.locator("main").textContent(), screen.path).toContain(screen.text);
    }
    await page.context().close();
  });

  it("page and filter the blog with plain links", async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto("/blog");
    const firstPage = await cardTitles(page);
    expect(firstPage).toHaveLength(4);
    await page.getByRole("navigation", { name: "分頁" }).getByRole("link", { name: "下一頁" }).click();
    await page.waitForURL("**/blog?page=2");
    const secondPage = await cardTitles(page);
    expect(secondPage.length).toBeGreaterThanOrEqual(2);
    expect(secondPage.filter((title) => firstPage.includes(title))).toEqual([]);
    expect(await page.getByRole("link", { name: "第 2 頁" }).getAttribute("aria-current")).toBe("page");

    await page.getByRole("navigation", { name: "文章分類" }).getByRole("link", { name: "責任感" }).click();
    await page.waitForURL(/category=/);
    expect(await page.locator(".card-grid .article-meta span:not([aria-hidden])").allTextContents()).toEqual(["責任感", "責任感"]);
    expect(await page.title()).toBe("家長學堂：責任感 | 任務小勇士");
    await page.context().close();
  });

  it("answer 404 with a message for unknown articles, topics and pages", async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    const cases = [
      ["/blog/no-such-article", "找不到這篇文章"],
      ["/news/no-such-item", "找不到這則消息"],
      ["/learning-resources/no-such-topic", "找不到這個主題"],
      ["/learning-resources/habits/deeper", "找不到這個主題"],
      ["/blog?page=99", "找不到這一頁"],
      ["/news?category=nothing", "找不到這一頁"],
    ];
    for (const [path, heading] of cases) {
      const response = await page.goto(path!);
      expect(response?.status(), path).toBe(404);
      expect(await page.locator("h1").textContent(), path).toBe(heading);
      expect(await page.locator('meta[name="robots"]').getAttribute("content")).toBe("noindex");
    }
    await page.context().close();
  });
});

describe("article pages", () => {
  const browser = useBrowser();

  it("show reading time and BlogPosting data, and lead to the older and newer article", async () => {
    const page = await browser.newPage();
    await openPage(page, "/blog/screen-time");
    await expect(page.locator("main").textContent()).resolves.toMatch(/閱讀時間約 \d+ 分鐘/);
    const [posting] = await structuredData(page);
    expect(posting).toMatchObject({
      "@type": "BlogPosting",
      headline: "螢幕時間怎麼約定：和孩子一起訂出 3C 使用規則",
      datePublished: "2026-10-27",
      inLanguage: "zh-Hant-TW",
      author: { "@type": "Organization", name: "任務小勇士團隊" },
    });
    expect(posting.mainEntityOfPage).toMatch(/\/blog\/screen-time$/);

    const neighbours = page.getByRole("navigation", { name: "更多家長學堂" });
    await neighbours.getByRole("link", { name: /下一篇/ }).click();
    await page.waitForURL("**/blog/responsibility");
    await page.getByRole("heading", { level: 1, name: "培養責任感：從「幫忙」到「負責」的轉變" }).waitFor();
    await neighbours.getByRole("link", { name: /上一篇/ }).click();
    await page.waitForURL("**/blog/screen-time");
    await expectNoAxeViolations(page);
  });

  it("give news items NewsArticle data; the newest has no newer item", async () => {
    const page = await browser.newPage();
    await openPage(page, "/news/ironman-2025-series");
    const [article] = await structuredData(page);
    expect(article).toMatchObject({ "@type": "NewsArticle", headline: "技術文章專區上線：2025 iThome 鐵人賽系列" });
    const neighbours = page.getByRole("navigation", { name: "更多最新消息" });
    expect(await neighbours.getByRole("link").count()).toBe(1);
    await expect(neighbours.getByRole("link").textContent()).resolves.toContain("上一篇");
    await expectNoAxeViolations(page);
  });

  it("render Markdown links safely, with the configured support address", async () => {
    const page = await browser.newPage();
    await openPage(page, "/privacy");
    const mail = page.locator('.prose a[href^="mailto:"]').first();
    expect(await mail.getAttribute("href")).toBe("mailto:support@example.tw");
    expect(await page.locator(".prose script").count()).toBe(0);
    await expectNoAxeViolations(page);
  });
});

describe("interactive details", () => {
  const browser = useBrowser();

  it("open FAQ answers from the keyboard and describe them as FAQPage data", async () => {
    const page = await browser.newPage();
    await openPage(page, "/faq");
    const item = page.locator("details#guest-what");
    await item.locator("summary").focus();
    await page.keyboard.press("Enter");
    expect(await item.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(true);
    await page.getByText("不需要電子郵件或密碼就能開始體驗").waitFor({ state: "visible" });
    await page.keyboard.press("Space");
    expect(await item.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);

    const [faqPage] = await structuredData(page);
    expect(faqPage["@type"]).toBe("FAQPage");
    expect(faqPage.mainEntity).toHaveLength(await page.locator("details.faq-item").count());
    expect(faqPage.mainEntity[0]).toMatchObject({ "@type": "Question", name: "要怎麼註冊帳號？" });
    expect(await page.getByRole("heading", { level: 2 }).allTextContents()).toEqual(
      expect.arrayContaining(["帳號", "兒童隱私", "訪客模式", "方案與費用", "裝置"]),
    );
  });

  it("start on the home page without an app configured: 立即開始 leads to sign-up, no placeholder address anywhere", async () => {
    const page = await browser.newPage();
    await openPage(page, "/");
    const hero = page.locator(".home-hero");
    const start = hero.getByRole("link", { name: "立即開始" });
    expect(await start.getAttribute("href")).toBe("/signup");
    expect(await start.getAttribute("target")).toBeNull();
    expect(await page.content()).not.toContain("example.tw/");
    expect(await page.content()).not.toContain("app.example");
    await expect(page.locator("main").textContent()).resolves.toContain("適合 3 到 12 歲的孩子");
  });

  it("set a size on every illustration and load those below the fold lazily", async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
    for (const path of ["/", "/tutorial", "/blog"]) {
      await openPage(page, path);
      const images = await page.locator("main img").evaluateAll((elements) =>
        elements.map((image) => ({
          sized: image.hasAttribute("width") && image.hasAttribute("height"),
          alt: image.getAttribute("alt"),
          lazy: image.getAttribute("loading") === "lazy",
          belowFold: image.getBoundingClientRect().top > window.innerHeight,
        })),
      );
      expect(images.length, path).toBeGreaterThan(0);
      for (const image of images) {
        expect(image, path).toMatchObject({ sized: true, alt: "" });
        if (image.belowFold) expect(image.lazy, path).toBe(true);
      }
    }
  });

  it("list the Ironman series: a link only where the day's own article address is known", async () => {
    const page = await browser.newPage();
    await openPage(page, "/ironman2025");
    expect(await page.locator(".ironman-list__item").count()).toBe(30);
    for (const href of await page.locator(".ironman-list a").evaluateAll((links) => links.map((link) => link.getAttribute("href")))) {
      expect(href).toMatch(/^https:\/\/ithelp\.ithome\.com\.tw\/articles\/\d+$/);
    }
    expect(await page.locator(".ironman-list__day").first().textContent()).toBe("第 1 天");
  });

  it("inline their styles, also on a screen reached by client-side navigation", async () => {
    const page = await browser.newPage();
    const response = await openPage(page, "/task-scheduler");
    expect(await response?.text()).not.toContain(`data-href="content-styles"`);
    await page.locator("footer").getByRole("link", { name: "常見問題" }).click();
    await page.waitForURL("**/faq");
    const summary = page.locator("details.faq-item").first();
    await summary.waitFor();
    expect(await summary.evaluate((element) => getComputedStyle(element).borderTopStyle)).toBe("solid");
    expect(await page.locator('head style[data-href="content-styles"]').count()).toBe(1);
    expect(await page.locator('link[rel="stylesheet"][href*="content"]').count()).toBe(0);
  });

  it("pass axe on the filtered lists, the learning topics and the news list", async () => {
    const page = await browser.newPage();
    for (const path of ["/blog?category=%E8%B2%AC%E4%BB%BB%E6%84%9F", "/learning-resources/age-appropriate-chores", "/news"]) {
      await openPage(page, path);
      await expectNoAxeViolations(page);
    }
  });
});
