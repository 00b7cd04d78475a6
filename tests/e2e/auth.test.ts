import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newEmail, password, signUp, storedUser, submitSignUp } from "./helpers/accounts";
import { baseURL, expectNoAxeViolations, holdRequests, openPage, useBrowser, waitForHydration } from "./helpers/browser";
import { linkTo, mailTo } from "./helpers/mailbox";

async function logIn(page: Page, email: string, secret = password) {
  await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
  await page.getByLabel("密碼").fill(secret);
  await page.getByRole("button", { name: "登入", exact: true }).click();
}

describe("sign-in layer in the browser", () => {
  const browser = useBrowser();

  it("signs up, verifies through the mailed link, logs in back to the page they came from, and logs out", async () => {
    const email = newEmail();
    const page = await browser.newPage();
    await signUp(page, email);
    await page.getByText(`我們已寄送驗證信到 ${email}`).waitFor();
    expect(await storedUser(page)).toMatchObject({ email, displayName: "小明", emailVerified: false, isAnonymous: false });

    await openPage(page, linkTo(await mailTo(email, /驗證/), "/verify-email"));
    await page.getByText("已完成驗證").waitFor();
    await page.context().close();

    const fresh = await browser.newPage();
    await openPage(fresh, "/login?redirectTo=%2Ffaq");
    await expectNoAxeViolations(fresh);
    await logIn(fresh, email);
    await fresh.waitForURL("**/faq");
    expect(await storedUser(fresh)).toMatchObject({ email, displayName: "小明", emailVerified: true });

    await openPage(fresh, "/login");
    await fresh.getByText("你目前以「小明」登入。").waitFor();
    await fresh.getByRole("button", { name: "登出" }).click();
    await fresh.getByRole("button", { name: "登入", exact: true }).waitFor();
    expect(await storedUser(fresh)).toBeNull();
    await fresh.context().close();
  });

  it("refuses a password login before the email is verified, with the original's message", async () => {
    const email = newEmail();
    const page = await browser.newPage();
    await signUp(page, email);
    const other = await browser.newPage();
    await openPage(other, "/login");
    await logIn(other, email);
    await other.getByRole("alert").getByText("電子郵件尚未驗證，請先完成驗證").waitFor();
    await other.getByRole("link", { name: "重新寄送驗證信" }).waitFor();
    await page.context().close();
    await other.context().close();
  });

  it("shows field errors tied to their inputs and the live password rules", async () => {
    const page = await browser.newPage();
    await openPage(page, "/signup");
    await page.getByRole("textbox", { name: "電子郵件" }).fill("not-an-email");
    await page.getByLabel("密碼", { exact: true }).fill("123");
    await page.getByRole("button", { name: "註冊" }).click();
    const emailField = page.getByRole("textbox", { name: "電子郵件" });
    expect(await emailField.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await emailField.getAttribute("aria-describedby")) ?? "";
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe("電子郵件格式不正確");
    // The rules in force: the configured minimum (8 by default) and the common-password rule.
    const lengthRule = page.getByRole("listitem").filter({ hasText: "至少 8 個字元（最多 128 個）" });
    expect(await lengthRule.getAttribute("data-met")).toBe("false");
    await page.getByRole("listitem").filter({ hasText: "不可是常見密碼" }).waitFor();
    await page.getByLabel("密碼", { exact: true }).fill("12345678");
    expect(await lengthRule.getAttribute("data-met")).toBe("true");
    await expectNoAxeViolations(page);
    await page.context().close();
  });

  it("disables the button while a request runs", async () => {
    const page = await browser.newPage();
    // The form posts to its route action (a .data request when JavaScript is on).
    const release = await holdRequests(page, "**/forgot-password.data*");
    await openPage(page, "/forgot-password");
    await page.getByRole("textbox", { name: "電子郵件" }).fill(newEmail());
    await page.getByRole("button", { name: "寄送重設密碼信" }).click();
    const busy = page.getByRole("button", { name: "寄送中…" });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    release();
    await page.getByText("重設密碼信已寄出").waitFor();
    expect(await page.getByRole("button", { name: "寄送重設密碼信" }).isEnabled()).toBe(true);
    await page.context().close();
  });

  it("upgrades a guest in place: the same uid in localStorage.user", async () => {
    const page = await browser.newPage();
    await openPage(page, "/login");
    await page.getByRole("button", { name: "以訪客身分試用" }).click();
    await page.waitForURL(`${baseURL()}/`);
    const guest = await storedUser(page);
    expect(guest).toMatchObject({ displayName: "訪客", email: null, isAnonymous: true });

    await openPage(page, "/signup");
    await page.getByRole("heading", { name: "升級訪客帳號" }).waitFor();
    const email = newEmail();
    await submitSignUp(page, email, "小華");
    expect(await storedUser(page)).toMatchObject({ uid: guest?.uid, email, displayName: "小華", isAnonymous: false, emailVerified: false });
    await mailTo(email, /驗證/);
    await page.context().close();
  });

  it("resets a forgotten password through the mailed link and logs in with the new one", async () => {
    const email = newEmail();
    const page = await browser.newPage();
    await signUp(page, email);
    await openPage(page, linkTo(await mailTo(email, /驗證/), "/verify-email"));
    await page.getByText("已完成驗證").waitFor();

    await openPage(page, "/forgot-password");
    await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await page.getByRole("button", { name: "寄送重設密碼信" }).click();
    await page.getByText("重設密碼信已寄出").waitFor();

    const resetLink = linkTo(await mailTo(email, /重設/), "/reset-password");
    const token = new URL(resetLink, baseURL()).searchParams.get("token")!;
    expect(token).toBeTruthy();
    await openPage(page, resetLink);
    // The token leaves the address bar and never reaches the data layer (GA4 reads both).
    await page.waitForURL(`${baseURL()}/reset-password`);
    const dataLayer = await page.evaluate(() => JSON.stringify((window.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>))));
    expect(dataLayer).toContain("page_view");
    expect(dataLayer).not.toContain(token);
    await page.getByLabel("新密碼", { exact: true }).fill("brand-new-456");
    await page.getByLabel("確認新密碼").fill("brand-new-456");
    await page.getByRole("button", { name: "重設密碼" }).click();
    await page.waitForURL("**/login?reset=done");
    await page.getByText("密碼已重設").waitFor();
    // The reset revoked the session this browser had.
    expect(await storedUser(page)).toBeNull();
    await logIn(page, email, "brand-new-456");
    await page.waitForURL(`${baseURL()}/`);
    expect(await storedUser(page)).toMatchObject({ email, emailVerified: true });
    await page.context().close();
  });

  it("signs in through the development identity provider in a pop-up", async () => {
    const email = newEmail();
    const page = await browser.newPage();
    await openPage(page, "/login?redirectTo=%2Fpricing");
    const popupOpened = page.waitForEvent("popup");
    await page.getByRole("button", { name: "使用開發測試帳號登入" }).click();
    const popup = await popupOpened;
    await popup.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await popup.getByRole("button", { name: "繼續" }).click();
    await page.waitForURL("**/pricing");
    expect(await storedUser(page)).toMatchObject({ email, emailVerified: true, isAnonymous: false });
    await page.context().close();
  });

  it("says so when the pop-up is cancelled at the provider", async () => {
    const page = await browser.newPage();
    await openPage(page, "/login");
    const popupOpened = page.waitForEvent("popup");
    await page.getByRole("button", { name: "使用開發測試帳號登入" }).click();
    const popup = await popupOpened;
    await popup.getByRole("button", { name: "取消" }).click();
    await page.getByRole("alert").getByText("登入請求已取消").waitFor();
    await page.context().close();
  });

  it("says so when the user closes the pop-up (after the original's 8 s grace period)", async () => {
    const page = await browser.newPage();
    // The page's clock is the test's: the 8 s pass at once, and the message may not come a moment early.
    await page.clock.install();
    await openPage(page, "/login");
    const popupOpened = page.waitForEvent("popup");
    await page.getByRole("button", { name: "使用開發測試帳號登入" }).click();
    const popup = await popupOpened;
    await popup.getByRole("textbox", { name: "電子郵件" }).waitFor();
    await popup.close();
    const closedMessage = page.getByRole("alert").getByText("登入視窗已被關閉，請再試一次");
    await page.clock.runFor(7_900);
    expect(await closedMessage.count()).toBe(0);
    await page.clock.runFor(400);
    await closedMessage.waitFor();
    expect(await page.getByRole("button", { name: "使用開發測試帳號登入" }).isEnabled()).toBe(true);
    await page.context().close();
  });

  it("says so when the browser blocks the pop-up", async () => {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      window.open = () => null;
    });
    await openPage(page, "/login");
    await page.getByRole("button", { name: "使用開發測試帳號登入" }).click();
    await page.getByRole("alert").getByText("彈出視窗被瀏覽器封鎖，請允許彈出視窗後再試一次").waitFor();
    await page.context().close();
  });

  it("explains a broken or used verification link and offers a new one", async () => {
    const page = await browser.newPage();
    await openPage(page, "/verify-email?token=not-a-token&email=someone%40example.tw");
    await page.getByRole("alert").getByText("此驗證連結已過期或已使用過。").waitFor();
    await page.getByRole("link", { name: "取得新的驗證信" }).click();
    await page.waitForURL("**/email-verification?email=someone%40example.tw");
    await page.getByText("我們已寄送驗證信到 someone@example.tw").waitFor();
    await page.context().close();
  });

  it("shows the self-test and the development mailbox", async () => {
    const page = await browser.newPage();
    await openPage(page, "/firebase-test");
    await page.getByText("使用開發測試帳號登入").waitFor();
    expect(await page.getByText("✓ 正常").count()).toBe(3);
    await page.getByText("未登入").waitFor();
    const email = newEmail();
    await signUp(page, email);
    await openPage(page, `/dev/mailbox?to=${encodeURIComponent(email)}`);
    await page.getByRole("heading", { name: "【任務小勇士】請驗證你的電子郵件" }).waitFor();
    await expectNoAxeViolations(page);
    await page.context().close();
  });

  it("starts every page loading and asks for the session only after hydration", async () => {
    const page = await browser.newPage();
    const html = await (await fetch(`${baseURL()}/`)).text();
    expect(html).not.toContain("你已登入");
    const sessionRequests: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/auth/me")) sessionRequests.push(request.url());
    });
    const sessionAnswer = page.waitForResponse((response) => response.url().includes("/api/auth/me"));
    await page.goto("/");
    await waitForHydration(page);
    await sessionAnswer;
    expect(sessionRequests).toHaveLength(1);
    expect(await page.evaluate(() => window.localStorage.getItem("user"))).toBeNull();
    await page.context().close();
  });
});
