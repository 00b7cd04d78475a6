import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { authErrorMessages, wrongPasswordMessage } from "~/features/auth";
import { createVerifiedAccount, newEmail, password, signInHere } from "./helpers/accounts";
import { baseURL, expectNoAxeViolations, openPage, useBrowser } from "./helpers/browser";
import { mailTo } from "./helpers/mailbox";

/** The answer of the sign-in API for `email` with the account's password. */
const signInStatus = async (email: string) =>
  (
    await fetch(`${baseURL()}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseURL() },
      body: JSON.stringify({ email, password }),
    })
  ).status;

async function logIn(page: Page, email: string, returnTo: string) {
  await openPage(page, `/login?redirectTo=${encodeURIComponent(returnTo)}`);
  await signInHere(page, email, returnTo);
}

async function continueAsGuest(page: Page, returnTo: string) {
  await openPage(page, `/login?redirectTo=${encodeURIComponent(returnTo)}`);
  await page.getByRole("button", { name: "以訪客身分試用" }).click();
  await page.waitForURL(`**${returnTo}`);
}

const sessionUser = (page: Page) =>
  page.evaluate(async () => ((await (await fetch("/api/auth/me")).json()) as { user: unknown }).user);

const deletionForm = (page: Page) => page.locator("form.deletion-form");

describe("current plan", () => {
  const browser = useBrowser();

  it("brings a visitor who signs up from there back to the plan", async () => {
    const page = await browser.newPage();
    await openPage(page, "/current-plan");
    await page.getByRole("main").getByRole("link", { name: "免費註冊" }).click();
    await page.waitForURL((url) => url.pathname === "/signup" && url.searchParams.get("redirectTo") === "/current-plan");
    await page.getByLabel("顯示名稱").fill("小明");
    await page.getByRole("textbox", { name: "電子郵件" }).fill(`content-${randomUUID().slice(0, 8)}@example.tw`);
    await page.getByLabel("密碼", { exact: true }).fill(password);
    await page.getByLabel("確認密碼").fill(password);
    await page.getByRole("button", { name: "註冊" }).click();
    await page.waitForURL((url) => url.pathname === "/email-verification" && url.searchParams.get("redirectTo") === "/current-plan");
    await page.getByRole("link", { name: "稍後再驗證" }).click();
    await page.waitForURL("**/current-plan");
    await page.getByRole("heading", { name: "使用限制" }).waitFor();
    await page.context().close();
  });

  it("asks a visitor to sign in, then shows the free plan with its limits and the way into the app", async () => {
    // The server already knows the visitor is signed out: the first HTML holds the sign-in card, no loading text.
    const html = await (await fetch(`${baseURL()}/current-plan`)).text();
    const firstMain = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    expect(firstMain).toContain("登入後查看你的方案");
    expect(firstMain).not.toContain("載入中…");
    const page = await browser.newPage();
    await openPage(page, "/current-plan");
    await page.getByRole("heading", { name: "登入後查看你的方案" }).waitFor();
    const signIn = page.getByRole("main").getByRole("link", { name: "登入", exact: true });
    expect(await signIn.getAttribute("href")).toBe("/login?redirectTo=%2Fcurrent-plan");
    expect(await page.getByRole("heading", { name: "使用限制" }).count()).toBe(0);
    await expectNoAxeViolations(page);

    const signUpLink = page.getByRole("main").getByRole("link", { name: "免費註冊" });
    expect(await signUpLink.getAttribute("href")).toBe("/signup?redirectTo=%2Fcurrent-plan");

    await signIn.click();
    await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("redirectTo") === "/current-plan");
    await page.getByRole("button", { name: "以訪客身分試用" }).click();
    await page.waitForURL("**/current-plan");
    await page.getByRole("heading", { name: "使用限制" }).waitFor();
    const main = page.getByRole("main");
    expect(await main.getByRole("heading", { level: 2, name: "免費方案" }).count()).toBe(1);
    await expect(main.textContent()).resolves.toContain("每個帳號管理一個家庭");
    // No APP_URL here: no way into an app is offered (app-sign-in.test.ts covers a configured one).
    expect(await main.getByRole("link", { name: "進入應用程式" }).count()).toBe(0);
    await expectNoAxeViolations(page);
  });
});

describe("account deletion", () => {
  const browser = useBrowser();

  it("explains what is deleted and kept, how long it takes and how to ask by email, without JavaScript", async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    const response = await page.goto("/account-deletion");
    expect(response?.status()).toBe(200);
    const headings = await page.getByRole("heading", { level: 2 }).allTextContents();
    expect(headings).toEqual(
      expect.arrayContaining(["會刪除的資料", "會保留的資料", "需要多久", "自行刪除帳號", "以電子郵件申請刪除"]),
    );
    const main = page.getByRole("main");
    await expect(main.textContent()).resolves.toContain("30 天內處理");
    const mail = main.getByRole("link", { name: "support@example.tw" });
    expect(await mail.getAttribute("href")).toBe(`mailto:support@example.tw?subject=${encodeURIComponent("刪除帳號申請")}`);
    await page.context().close();
  });

  it("asks a visitor to sign in and come back", async () => {
    const page = await browser.newPage();
    await openPage(page, "/account-deletion");
    const signIn = page.locator("#deletion-self-service").locator("..").getByRole("link", { name: "登入", exact: true });
    expect(await signIn.getAttribute("href")).toBe("/login?redirectTo=%2Faccount-deletion");
    expect(await deletionForm(page).count()).toBe(0);
    await expectNoAxeViolations(page);
  });

  it("deletes a signed-in account after the confirmation word and the password; signing in again fails", async () => {
    const page = await browser.newPage();
    const email = await createVerifiedAccount(newEmail(), "測試家長");
    await logIn(page, email, "/account-deletion");
    const form = deletionForm(page);
    await form.getByText(email).waitFor();
    await expectNoAxeViolations(page);

    await form.getByLabel("請輸入「刪除帳號」").fill("刪除");
    await form.getByLabel("密碼").fill(password);
    await form.getByRole("button", { name: "永久刪除我的帳號" }).click();
    expect(await form.getByRole("alert").textContent()).toBe("請輸入「刪除帳號」確認刪除。");

    await form.getByLabel("請輸入「刪除帳號」").fill("刪除帳號");
    await form.getByLabel("密碼").fill("");
    await form.getByRole("button", { name: "永久刪除我的帳號" }).click();
    await expect.poll(() => form.getByRole("alert").textContent()).toBe(authErrorMessages["auth/missing-password"]);

    await form.getByLabel("密碼").fill("wrong-password");
    await form.getByRole("button", { name: "永久刪除我的帳號" }).click();
    await expect.poll(() => form.getByRole("alert").textContent()).toBe(wrongPasswordMessage);
    expect(await sessionUser(page)).toMatchObject({ email });

    await form.getByLabel("密碼").fill(password);
    await form.getByRole("button", { name: "永久刪除我的帳號" }).click();
    await page.getByRole("status").filter({ hasText: "你的帳號與資料已經刪除" }).waitFor();
    expect(await sessionUser(page)).toBeNull();
    expect(await page.evaluate(() => window.localStorage.getItem("user"))).toBeNull();
    expect(await signInStatus(email)).toBe(401);
    // The confirmation mail the stores ask for (issue 28 item 2, issue 32 item 7).
    const confirmation = await mailTo(email, /你的帳號已刪除/);
    expect(confirmation.text).toContain("立即生效");
    expect(confirmation.links.some((link) => new URL(link).pathname === "/account-deletion")).toBe(true);
  });

  it("deletes a guest without asking for a password", async () => {
    const page = await browser.newPage();
    await continueAsGuest(page, "/account-deletion");
    const form = deletionForm(page);
    await form.getByText("訪客").waitFor();
    expect(await form.getByLabel("密碼").count()).toBe(0);
    const guest = (await sessionUser(page)) as { uid: string; isAnonymous: boolean };
    expect(guest.isAnonymous).toBe(true);

    await form.getByLabel("請輸入「刪除帳號」").fill("刪除帳號");
    await form.getByRole("button", { name: "永久刪除我的帳號" }).click();
    await page.getByRole("status").filter({ hasText: "你的帳號與資料已經刪除" }).waitFor();
    expect(await sessionUser(page)).toBeNull();
    await page.reload();
    await page.locator("#deletion-self-service").locator("..").getByRole("link", { name: "登入", exact: true }).waitFor();
  });
});
