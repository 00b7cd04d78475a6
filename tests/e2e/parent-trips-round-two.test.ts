import type { Locator, Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { baseURL, openPage, saveScreenshot, shellViewports, useBrowser, waitForHydration } from "./helpers/browser";
import { createVerifiedAccount, newEmail, signInByApi, signInTo } from "./helpers/accounts";

// Where a parent tripped, round two (issue 32), at 375 and 1280 px, with and without JavaScript: a signed-in header
// on prerendered pages, 我的資料 in words and Taiwan time, results in view below the sticky bar, passkeys on an
// IP-address site, finding and confirming account tasks, and the wording. Screenshots go to test-results/screenshots/.

/** The element is fully on screen, and not under the sticky bar. */
async function expectInView(page: Page, target: Locator) {
  const box = await target.boundingBox();
  const bar = await page.locator("header.site-header").boundingBox();
  expect(box).not.toBeNull();
  expect(box!.y).toBeGreaterThanOrEqual(bar ? bar.y + bar.height - 1 : 0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(page.viewportSize()!.height);
}

describe("what a parent trips over, round two", () => {
  const browser = useBrowser();

  /** A verified parent signed in on a page of its own (JavaScript on or off). */
  async function signedInParent(viewport: { width: number; height: number }, javaScriptEnabled = true, name = "林爸爸") {
    const email = await createVerifiedAccount(newEmail(), name);
    const page = await browser.newPage({ viewport, javaScriptEnabled });
    await signInByApi(page, email);
    return { page, email };
  }

  it.each(shellViewports)("11. a signed-in parent's header on a prerendered page knows them from the server's HTML, at %s", async (label, viewport) => {
    const tag = viewport.width < 500 ? "375" : "1280";
    // Anonymous: the prerendered copy, which depends on the cookie (Vary).
    const anonymous = await fetch(`${baseURL()}/features`);
    expect(anonymous.headers.get("etag")).not.toBeNull();
    expect(anonymous.headers.get("vary")).toMatch(/Cookie/);
    expect(await anonymous.text()).toContain('href="/login"');

    for (const javaScriptEnabled of [false, true]) {
      const { page } = await signedInParent(viewport, javaScriptEnabled);
      // The server's HTML itself (what shows before any script): the user menu with 登出, no 登入 or 註冊.
      const served = await page.request.get("/features");
      expect(served.headers()["cache-control"]).toBe("private, no-cache");
      const header = /<header[\s\S]*?<\/header>/.exec(await served.text())?.[0] ?? "";
      expect(header).toContain("林爸爸");
      expect(header).not.toContain('href="/login"');
      expect(header).not.toContain('href="/signup"');
      await page.goto("/features");
      if (javaScriptEnabled) await waitForHydration(page);
      const bar = page.locator("header.site-header");
      expect(await bar.getByRole("link", { name: "登入", exact: true }).count()).toBe(0);
      if (viewport.width < 500) await bar.locator("summary", { hasText: "選單" }).click();
      await bar.locator("summary", { hasText: "林爸爸" }).click();
      await bar.getByRole("button", { name: "登出" }).waitFor();
      await saveScreenshot(page, `round2-item11-features-signed-in-${tag}-${javaScriptEnabled ? "js" : "nojs"}`);
      if (!javaScriptEnabled) {
        // Signing out works from the server's HTML.
        await bar.getByRole("button", { name: "登出" }).click();
        await page.waitForURL((url) => url.pathname === "/login");
        expect(((await (await page.request.get("/api/auth/me")).json()) as { user: unknown }).user).toBeNull();
      }
      await page.context().close();
    }
  });

  it.each(shellViewports)("3. 我的資料 reads in words and Taiwan time; the JSON download keeps its names, at %s", async (label, viewport) => {
    const tag = viewport.width < 500 ? "375" : "1280";
    const { page } = await signedInParent(viewport, false);
    const made = await page.request.post("/wishing-well", { headers: { origin: baseURL() }, form: { intent: "create", title: "希望可以設定每週提醒", body: "" }, maxRedirects: 0 });
    expect(made.status()).toBe(303);
    await page.goto("/account/data");
    const main = page.locator("main");
    const text = (await main.textContent()) ?? "";
    expect(text).toContain("我許的願望");
    expect(text).toContain("狀態新願望");
    expect(text).toMatch(/建立時間\d{4} 年 \d{1,2} 月 \d{1,2} 日 \d{2}:\d{2}/);
    expect(text).not.toMatch(/\b(wishes|votes|status|open|createdAt|updatedAt|contentType)\b/);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    await saveScreenshot(page, `round2-item03-account-data-${tag}`);
    const download = (await (await page.request.get("/account/data.json")).json()) as { features: { wishes: { wishes: { status: string; createdAt: string }[] } } };
    expect(download.features.wishes.wishes[0]).toMatchObject({ status: "open", createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    await page.context().close();
  });

  it.each(shellViewports)("4. the photo's result is in view below the sticky bar and its file box fits the card, with and without JavaScript, at %s", async (label, viewport) => {
    const tag = viewport.width < 500 ? "375" : "1280";
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#ff8800" } }).png().toBuffer();
    for (const javaScriptEnabled of [true, false]) {
      const { page } = await signedInParent(viewport, javaScriptEnabled);
      if (javaScriptEnabled) await openPage(page, "/account");
      else await page.goto("/account");
      const card = page.locator(".photo-card");
      const fileBox = page.getByLabel("選擇新的大頭貼（PNG、JPEG、WebP 或 GIF）");
      const cardBox = (await card.boundingBox())!;
      for (const part of [fileBox, card.getByRole("button", { name: "上傳大頭貼" })]) {
        const box = (await part.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(cardBox.x);
        expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width + 0.5);
      }
      await fileBox.setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: png });
      await card.getByRole("button", { name: "上傳大頭貼" }).click();
      const notice = page.getByText("大頭貼已更新。");
      await notice.waitFor();
      await expect.poll(async () => {
        try {
          await expectInView(page, notice);
          return true;
        } catch {
          return false;
        }
      }).toBe(true);
      await saveScreenshot(page, `round2-item04-photo-updated-${tag}-${javaScriptEnabled ? "js" : "nojs"}`);
      await page.context().close();
    }
  });

  it("6. a site opened by its IP address offers no passkeys and shows no error; by name it offers them", async () => {
    const port = new URL(baseURL()).port;
    const page = await browser.newPage({ baseURL: undefined });
    await openPage(page, `http://127.0.0.1:${port}/login`);
    await page.getByRole("button", { name: "登入", exact: true }).waitFor();
    await page.waitForTimeout(1000);
    expect(await page.getByRole("button", { name: "使用密碼金鑰登入" }).count()).toBe(0);
    expect(await page.getByText("不支援密碼金鑰").count()).toBe(0);
    await openPage(page, `${baseURL()}/login`);
    await page.getByRole("button", { name: "使用密碼金鑰登入" }).waitFor();
    await page.context().close();
  });

  it.each(shellViewports)("7 and 10. 帳號設定 links every security task, a device's sign-out asks first, a guest is warned, the wording reads right, at %s", async (label, viewport) => {
    const tag = viewport.width < 500 ? "375" : "1280";
    const { page, email } = await signedInParent(viewport, false);
    await page.goto("/account");
    expect(await page.locator("main").getByRole("link", { name: "兩步驟驗證" }).getAttribute("href")).toBe("/account/two-step");
    expect(await page.locator("main").getByRole("link", { name: "密碼金鑰" }).getAttribute("href")).toBe("/account/passkeys");
    await page.getByRole("button", { name: "連結開發測試帳號" }).waitFor();
    expect(await page.getByText("照片會自動裁成正方形").count()).toBe(1);

    // Another device (the setup browser's sign-in): 登出這個裝置 asks, and only 確定登出 ends it.
    const other = await browser.newPage();
    await signInTo(other, email, "/account");
    await page.goto("/account/security");
    const others = () => page.locator(".device").filter({ has: page.locator("summary", { hasText: "登出這個裝置" }) });
    const before = await others().count();
    await others().first().locator("summary").click();
    await page.getByText(/^確定要登出「.+」嗎？/).first().waitFor();
    await saveScreenshot(page, `round2-item07-device-sign-out-asks-${tag}`);
    await others().first().getByRole("button", { name: "確定登出" }).click();
    await page.getByRole("status").filter({ hasText: "已登出" }).waitFor();
    expect(await others().count()).toBe(before - 1);
    await other.context().close();

    // The login screen of someone signed in.
    await page.goto("/login");
    await page.getByText("你目前以「林爸爸」登入。").waitFor();
    await page.context().close();

    // A guest is told what signing out costs, in the menu right above 登出.
    const guest = await browser.newPage({ viewport });
    await guest.request.post("/api/auth/sign-in/anonymous", { headers: { origin: baseURL() }, data: {} });
    await openPage(guest, "/features");
    const bar = guest.locator("header.site-header");
    if (viewport.width < 500) await bar.locator("summary", { hasText: "選單" }).click();
    await bar.locator("summary", { hasText: "訪客" }).click();
    await bar.getByText("訪客的資料只存在這個瀏覽器，登出後就會遺失。").waitFor();
    await saveScreenshot(guest, `round2-item07-guest-sign-out-warning-${tag}`);
    guest.once("dialog", (dialog) => void dialog.dismiss());
    await bar.getByRole("button", { name: "登出" }).click();
    expect(((await (await guest.request.get("/api/auth/me")).json()) as { user: { isAnonymous: boolean } | null }).user?.isAnonymous).toBe(true);
    await guest.context().close();
  });

  it("10. the danger button looks the same on the wishing well as elsewhere", async () => {
    const { page } = await signedInParent({ width: 1280, height: 800 }, false);
    const made = await page.request.post("/wishing-well", { headers: { origin: baseURL() }, form: { intent: "create", title: "請加入深色模式", body: "" }, maxRedirects: 0 });
    await page.goto(new URL(made.headers().location!, baseURL()).pathname);
    const background = await page.locator("summary.button--danger").evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(background).toBe("rgb(198, 40, 40)");
    await page.context().close();
  });
});
