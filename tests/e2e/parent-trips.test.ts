import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, expectNoAxeViolations, openPage, saveScreenshot, shellViewports, useBrowser, waitForHydration } from "./helpers/browser";
import { createVerifiedAccount, newEmail, password, signInHere } from "./helpers/accounts";
import { linkTo, mailTo } from "./helpers/mailbox";
import { runOperatorScript } from "./helpers/operator";

// Where a parent tripped (a 375 px phone and a 1280 px laptop, with and without JavaScript): each result is in view
// and focused after its action, a guest finds the way up, deleting a wish asks first, the wishing well reads on a
// phone, sign-up and verification say the right thing, the bar works from the server's HTML, posts show quotes and
// code, and a tap right after `load` counts. Every step also leaves a screenshot in test-results/screenshots/
// (scripts/screenshots.sh).

async function signInAsGuestByApi(page: Page) {
  const answer = await page.request.post("/api/auth/sign-in/anonymous", { headers: { origin: baseURL() }, data: {} });
  expect(answer.status()).toBe(200);
}

/** The element is fully on screen, and not under the sticky bar. */
async function expectInView(page: Page, target: Locator) {
  const box = await target.boundingBox();
  const bar = await page.locator("header.site-header").boundingBox();
  const height = page.viewportSize()!.height;
  expect(box).not.toBeNull();
  expect(box!.y).toBeGreaterThanOrEqual(bar ? bar.y + bar.height - 1 : 0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(height);
}

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? "");

/** A wish made through the board's form post (no page needed), its permalink path. */
async function makeWish(page: Page, title: string, body = "") {
  const made = await page.request.post("/wishing-well", { headers: { origin: baseURL() }, form: { intent: "create", title, body }, maxRedirects: 0 });
  expect(made.status()).toBe(303);
  return new URL(made.headers().location!, baseURL()).pathname;
}

describe.each(shellViewports)("what a parent trips over, at %s", (label, viewport) => {
  const browser = useBrowser();
  const isPhone = viewport.width < 500;
  const tag = isPhone ? "375" : "1280";
  const openMenu = async (page: Page) => {
    if (isPhone) await page.locator("summary", { hasText: "選單" }).click();
  };

  it("1. shows the account deletion's result at the top, in view and focused (with and without JavaScript)", async () => {
    for (const javaScriptEnabled of [true, false]) {
      const page = await browser.newPage({ viewport, javaScriptEnabled });
      await signInAsGuestByApi(page);
      await page.goto("/account-deletion");
      if (javaScriptEnabled) await waitForHydration(page);
      await page.getByLabel("請輸入「刪除帳號」").fill("刪除帳號");
      await page.getByRole("button", { name: "永久刪除我的帳號" }).click();
      const done = page.getByText("你的帳號與資料已經刪除");
      await done.waitFor();
      await expect.poll(() => focusedText(page)).toContain("你的帳號與資料已經刪除");
      await expectInView(page, done);
      expect(await page.getByText("以電子郵件申請刪除").count()).toBe(0);
      await saveScreenshot(page, `item01-account-deleted-${tag}-${javaScriptEnabled ? "js" : "nojs"}`);
      await page.context().close();
    }
  });

  it("2. gives a guest the way up: the user menu, /current-plan and the upgrade screen say 升級成正式帳號", async () => {
    const page = await browser.newPage({ viewport });
    await signInAsGuestByApi(page);
    await openPage(page, "/current-plan");
    const upgrade = page.locator("main").getByRole("link", { name: "升級成正式帳號" });
    expect(await upgrade.getAttribute("href")).toBe("/signup?redirectTo=%2Fcurrent-plan");
    await saveScreenshot(page, `item02-current-plan-guest-${tag}`);
    await openPage(page, "/");
    await openMenu(page);
    await page.locator("summary", { hasText: "訪客" }).click();
    const menuLink = page.locator("header").getByRole("link", { name: "升級成正式帳號" });
    await menuLink.waitFor();
    await saveScreenshot(page, `item02-user-menu-guest-${tag}`);
    await menuLink.click();
    await page.getByRole("heading", { name: "升級訪客帳號" }).waitFor();
    await page.getByRole("button", { name: "升級成正式帳號" }).waitFor();
    expect(await page.getByRole("button", { name: "註冊" }).count()).toBe(0);
    await saveScreenshot(page, `item02-upgrade-screen-${tag}`);
    await page.context().close();
  });

  it("3. asks before deleting a wish, without JavaScript too, and says what goes with it", async () => {
    for (const javaScriptEnabled of [true, false]) {
      const page = await browser.newPage({ viewport, javaScriptEnabled });
      await signInAsGuestByApi(page);
      const wishPath = await makeWish(page, `想刪掉的願望 ${Date.now() % 100000}`);
      await page.goto(wishPath);
      if (javaScriptEnabled) await waitForHydration(page);
      const confirm = page.getByRole("button", { name: "確定刪除" });
      expect(await confirm.isVisible()).toBe(false);
      await page.locator("summary", { hasText: "刪除這個願望" }).click();
      await page.getByText("確定要刪除嗎？刪除後無法復原。").waitFor();
      expect(page.url()).toContain(wishPath); // the first tap deleted nothing
      await saveScreenshot(page, `item03-wish-delete-confirm-${tag}-${javaScriptEnabled ? "js" : "nojs"}`);
      await confirm.click();
      await page.waitForURL("**/wishing-well?deleted=1");
      const notice = page.getByText("你的願望已經刪除。");
      await notice.waitFor();
      await expect.poll(() => focusedText(page)).toBe("你的願望已經刪除。");
      await expectInView(page, notice);
      expect((await page.request.get(wishPath)).status()).toBe(404);
      await page.context().close();
    }
  });

  it("4. puts the new-wish form before the list on a phone, and searches title and text, Chinese without spaces", async () => {
    const page = await browser.newPage({ viewport });
    await signInAsGuestByApi(page);
    const mark = `搜${Date.now() % 1000000}`;
    await makeWish(page, `${mark}想要深色模式`, "晚上看螢幕比較不刺眼");
    await makeWish(page, `${mark}列印任務表`, "希望可以印出深色的版本");
    await openPage(page, "/wishing-well");
    const form = await page.getByRole("heading", { name: "許下願望" }).boundingBox();
    const list = await page.locator(".wish-list").boundingBox();
    if (isPhone) expect(form!.y).toBeLessThan(list!.y);
    else expect(form!.x).toBeGreaterThan(list!.x); // beside the list
    expect(form!.y).toBeLessThan(viewport.height);
    await saveScreenshot(page, `item04-wishing-well-${tag}`);
    // 深色列印 typed without a space: 深色 is in the text, 列印 in the title.
    await page.getByRole("searchbox", { name: "搜尋願望" }).fill(`${mark} 深色列印`);
    await page.getByRole("button", { name: "搜尋", exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get("q") === `${mark} 深色列印`);
    await page.getByText(`找到 1 個符合「${mark} 深色列印」的願望`).waitFor();
    await page.locator(".wish-card", { hasText: "列印任務表" }).waitFor();
    await page.getByRole("searchbox", { name: "搜尋願望" }).fill(`${mark} 刺眼`);
    await page.getByRole("button", { name: "搜尋", exact: true }).click();
    await page.getByText(`找到 1 個符合「${mark} 刺眼」的願望`).waitFor();
    await page.getByRole("searchbox", { name: "搜尋願望" }).fill(`${mark} 深色`);
    await page.getByRole("button", { name: "搜尋", exact: true }).click();
    await page.getByText(`找到 2 個符合「${mark} 深色」的願望`).waitFor();
    await saveScreenshot(page, `item04-wishing-well-search-${tag}`);
    // A signed-in parent's own wish: its vote box keeps its size beside the text.
    const own = page.locator(".wish-card").first().locator(".vote-button");
    const card = await page.locator(".wish-card").first().boundingBox();
    expect((await own.boundingBox())!.height).toBeLessThan(card!.height - 20);
    await page.context().close();
  });

  it("5. sign-up: the common-password banner goes once the password is changed, one mark per rule, the PDPA links", async () => {
    const page = await browser.newPage({ viewport });
    await openPage(page, "/signup");
    const rules = page.getByRole("list", { name: "密碼規則" });
    expect(await rules.evaluate((list) => getComputedStyle(list).listStyleType)).toBe("none");
    expect((await rules.locator("li").first().textContent())?.startsWith("・")).toBe(true);
    const form = page.locator("form.auth-form");
    expect(await form.getByRole("link", { name: "隱私權政策" }).getAttribute("href")).toBe("/privacy");
    expect(await form.getByRole("link", { name: "服務條款" }).getAttribute("href")).toBe("/terms");
    await page.getByLabel("顯示名稱").fill("小明");
    await page.getByRole("textbox", { name: "電子郵件" }).fill(newEmail());
    await page.getByLabel("密碼", { exact: true }).fill("password123");
    await page.getByLabel("確認密碼").fill("password123");
    await page.getByRole("button", { name: "註冊" }).click();
    const banner = page.locator(".auth-alert", { hasText: "這個密碼太常見" });
    await banner.waitFor();
    await saveScreenshot(page, `item05-signup-common-password-${tag}`);
    await page.getByLabel("密碼", { exact: true }).fill("family-trip-2026");
    await banner.waitFor({ state: "detached" });
    expect(await page.getByText("這個密碼太常見").count()).toBe(0);
    await saveScreenshot(page, `item05-signup-fixed-${tag}`);
    await page.context().close();
  });

  it("6. verification: no 前往登入 for the signed-in, no 目前沒有登入 after a sign-up without JavaScript", async () => {
    const email = newEmail();
    const page = await browser.newPage({ viewport, javaScriptEnabled: false });
    await page.goto("/signup");
    await page.getByLabel("顯示名稱").fill("小明");
    await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await page.getByLabel("密碼", { exact: true }).fill(password);
    await page.getByLabel("確認密碼").fill(password);
    await page.getByRole("button", { name: "註冊" }).click();
    await page.waitForURL((url) => url.pathname === "/email-verification");
    await page.getByText(`註冊完成！我們已寄送驗證信到 ${email}`).waitFor();
    expect(await page.getByText("目前沒有登入").count()).toBe(0);
    await saveScreenshot(page, `item06-signup-sent-nojs-${tag}`);
    await page.context().close();

    // Signed in (the browser that signed up) opens the link: 繼續, not 前往登入.
    const signedIn = await browser.newPage({ viewport });
    const other = newEmail();
    const answer = await signedIn.request.post("/api/auth/sign-up/email", { headers: { origin: baseURL() }, data: { email: other, password, name: "小華" } });
    expect(answer.status()).toBe(200);
    await openPage(signedIn, linkTo(await mailTo(other, /驗證/), "/verify-email"));
    await signedIn.getByText("你已經登入，可以繼續使用。").waitFor();
    await signedIn.getByRole("link", { name: "繼續" }).waitFor();
    expect(await signedIn.getByRole("link", { name: "前往登入" }).count()).toBe(0);
    await saveScreenshot(signedIn, `item06-verified-signed-in-${tag}`);
    await signedIn.context().close();
  });

  it("7. the bar works from the server's HTML: 選單 opens, the signed-in user is named and can sign out", async () => {
    const visitor = await browser.newPage({ viewport, javaScriptEnabled: false });
    await visitor.goto("/");
    await openMenu(visitor);
    for (const name of ["登入", "註冊", "許願池"]) expect(await visitor.locator("header").getByRole("link", { name, exact: true }).isVisible()).toBe(true);
    await saveScreenshot(visitor, `item07-header-nojs-visitor-${tag}`);
    await visitor.context().close();

    const page = await browser.newPage({ viewport, javaScriptEnabled: false });
    const email = await createVerifiedAccountWithoutScript(page);
    await page.goto("/wishing-well");
    await openMenu(page);
    expect(await page.locator("header").getByText("載入中").count()).toBe(0);
    await page.locator("summary", { hasText: "小勇" }).click();
    await saveScreenshot(page, `item07-header-nojs-signed-in-${tag}`);
    await page.locator("header").getByRole("button", { name: "登出" }).click();
    await page.waitForURL((url) => url.pathname === "/login");
    const me = await page.request.get("/api/auth/me");
    expect((await me.json()) as unknown).toEqual({ user: null });
    expect(email).toContain("@");
    await page.context().close();
  });

  it("10. a post sets quotes and code apart and wraps long code on a phone; the editor's file pickers look like the site's buttons", { timeout: 120_000 }, async () => {
    const page = await browser.newPage({ viewport });
    const email = await createVerifiedAccount(newEmail(), "小編");
    expect(runOperatorScript("scripts/user-role.mjs", [email, "editor"]).status).toBe(0);
    await page.goto("/dev-blog/create");
    await signInHere(page, email, "/dev-blog/create");
    await waitForHydration(page);

    // Each picker's button carries the look of the editor's own 儲存草稿 button.
    const look = ["color", "backgroundColor", "borderTopColor", "borderTopWidth", "borderTopLeftRadius", "fontWeight"] as const;
    const button = await page.locator('button[value="save"]').evaluate((element, names) => names.map((name) => getComputedStyle(element)[name]), look);
    for (const picker of [page.getByLabel("上傳封面圖片："), page.getByLabel("插入圖片：")]) {
      expect(await picker.evaluate((element, names) => names.map((name) => getComputedStyle(element, "::file-selector-button")[name]), look)).toEqual(button);
    }
    await page.getByLabel("上傳封面圖片：").scrollIntoViewIfNeeded();
    await saveScreenshot(page, `item10-editor-pickers-${tag}`);

    const title = `引言與程式碼 ${Date.now()}`;
    await page.getByLabel("標題").fill(title);
    await page.getByLabel("摘要").fill("看看引言和程式碼在手機上的樣子。");
    await page.getByLabel("內文（Markdown）").fill(
      [
        "> 孩子說：「今天的任務我自己完成了！」這是我們最想聽到的一句話。",
        "",
        "程序數由 `WEB_CONCURRENCY` 決定，例如：",
        "",
        "```",
        "WEB_CONCURRENCY=2 PAGE_CACHE_SECONDS=600 DATABASE_URL=postgres://site@database.example.internal:5432/site npm start",
        "```",
      ].join("\n"),
    );
    await page.getByRole("button", { name: "發表" }).click();
    await page.waitForURL(/\/dev-blog\/[A-Za-z0-9]{20}$/);
    // The address changes first; the editor (with a preview of the same body) stays until the post's screen is ready.
    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    const prose = page.locator("main .prose");
    await prose.locator("blockquote").waitFor();
    expect(await prose.locator("pre code").textContent()).toContain("npm start");
    // The long line wraps inside its block: nothing reaches past the screen, nothing scrolls sideways.
    const code = await prose.locator("pre").boundingBox();
    expect(code!.x + code!.width).toBeLessThanOrEqual(viewport.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await prose.locator("blockquote").scrollIntoViewIfNeeded();
    await saveScreenshot(page, `item10-post-quote-code-${tag}`);
    await expectNoAxeViolations(page);
    await page.context().close();
  });

  it("12. a tap right after `load` counts: 分享網站 and 選單, repeated, while the page's scripts are still on their way", async () => {
    /** `/` at its `load` event, with the scripts held 400 ms, so every tap below lands before React listens. */
    const loadedBeforeScripts = async () => {
      const page = await browser.newPage({ viewport });
      await page.route("**/assets/*.js", async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        await route.continue();
      });
      await page.goto("/", { waitUntil: "load" });
      return page;
    };
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const page = await loadedBeforeScripts();
      expect(await page.locator("html[data-hydrated]").count()).toBe(0);
      await page.locator("footer").getByRole("button", { name: "分享網站" }).click();
      await page.getByRole("dialog", { name: "分享網站" }).waitFor();
      await waitForHydration(page);
      if (attempt === 0) await saveScreenshot(page, `item12-share-after-early-tap-${tag}`);
      await page.context().close();
    }
    if (!isPhone) return;
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const page = await loadedBeforeScripts();
      await page.locator("summary", { hasText: "選單" }).click();
      await waitForHydration(page);
      // Still open after hydration, and still a working menu.
      expect(await page.locator("details.site-header__disclosure").getAttribute("open")).toBe("");
      expect(await page.locator("header").getByRole("link", { name: "許願池" }).isVisible()).toBe(true);
      if (attempt === 0) await saveScreenshot(page, `item12-menu-after-early-tap-${tag}`);
      await page.keyboard.press("Escape");
      await expect.poll(() => page.locator("details.site-header__disclosure").getAttribute("open")).toBeNull();
      await page.context().close();
    }
  });

  /** A verified account signed in through the no-JavaScript forms; named 小勇士 so the bar can be found. */
  async function createVerifiedAccountWithoutScript(page: Page) {
    const email = newEmail();
    await createVerifiedAccount(email, `小勇士${label.length}`);
    await page.goto("/login");
    await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await page.getByLabel("密碼").fill(password);
    await page.getByRole("button", { name: "登入", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/");
    return email;
  }
});
