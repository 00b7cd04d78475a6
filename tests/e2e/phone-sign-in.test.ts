import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createVerifiedAccount, givePhoneNumber, newNumber, signInByApi } from "./helpers/accounts";
import { accountWithTwoStep } from "./helpers/two-step";
import { baseURL, openPage, useBrowser } from "./helpers/browser";
import { textedCode } from "./helpers/mailbox";


async function me(page: Page) {
  const answer = await page.request.get("/api/auth/me");
  return ((await answer.json()) as { user: { displayName: string | null; isAnonymous: boolean } | null }).user;
}

/** Sends /login/phone's two forms: the number, then the texted code (and a display name the first time). */
async function sendPhoneCode(page: Page, number: { e164: string; typed: string }, displayName?: string) {
  await page.getByLabel("手機號碼").fill(number.typed);
  await page.getByRole("button", { name: "傳送驗證碼" }).click();
  await page.getByLabel("簡訊驗證碼").waitFor();
  await page.getByLabel("簡訊驗證碼").fill(await textedCode(number.e164));
  if (displayName) await page.getByLabel(/顯示名稱/).fill(displayName);
  await page.getByRole("button", { name: "登入", exact: true }).click();
}

/** The two steps of /login/phone, signed in at the end. */
async function signInByPhone(page: Page, number: { e164: string; typed: string }, displayName?: string) {
  await sendPhoneCode(page, number, displayName);
  await page.waitForURL((url) => url.pathname === "/");
}

describe("phone sign-in", () => {
  const browser = useBrowser();

  it("signs up by phone with a display name, typed the usual way", async () => {
    const page = await browser.newPage();
    await openPage(page, "/login");
    await page.getByRole("link", { name: "用手機號碼登入" }).click();
    await page.waitForURL("**/login/phone");
    await signInByPhone(page, newNumber(), "王媽媽");
    expect((await me(page))?.displayName).toBe("王媽媽");
  });

  it("works without JavaScript, and refuses a number it cannot text with the catalogue's message", async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto("/login/phone");
    await page.getByLabel("手機號碼").fill("02-2345-6789");
    await page.getByRole("button", { name: "傳送驗證碼" }).click();
    await page.getByText("請輸入正確的手機號碼").first().waitFor();
    await signInByPhone(page, newNumber(), "李爸爸");
    expect((await me(page))?.displayName).toBe("李爸爸");
  });

  it("turns a guest into a phone account", async () => {
    const page = await browser.newPage();
    await openPage(page, "/login/phone");
    expect((await page.request.post("/api/auth/sign-in/anonymous", { data: {}, headers: { origin: baseURL() } })).status()).toBe(200);
    expect((await me(page))?.isAnonymous).toBe(true);
    await openPage(page, "/login/phone");
    await signInByPhone(page, newNumber(), "張阿姨");
    const user = await me(page);
    expect(user?.isAnonymous).toBe(false);
    expect(user?.displayName).toBe("張阿姨");
  });
});

/** Adds `number` in the account center's 登入方式 (a texted code, then that code) of the account signed in on `page`. */
async function addNumber(page: Page, number: { e164: string; typed: string }) {
  const methods = page.getByRole("region", { name: "登入方式" });
  await methods.getByLabel("手機號碼").fill(number.typed);
  await methods.getByRole("button", { name: "傳送驗證碼" }).click();
  await methods.getByLabel("簡訊驗證碼").fill(await textedCode(number.e164));
  await methods.getByRole("button", { name: "加入手機號碼" }).click();
  await page.getByRole("status").filter({ hasText: "手機號碼已加入" }).waitFor();
  await methods.getByText(number.typed).waitFor();
}

describe("two-step sign-in after a texted code", () => {
  const browser = useBrowser();

  it("asks an account with an authenticator app for its code before any session, with and without JavaScript", { timeout: 180_000 }, async () => {
    for (const javaScriptEnabled of [true, false]) {
      const { email, nextCode } = await accountWithTwoStep(await browser.newPage());
      // Adding a number in the account center is tested below; here the number is the account's already.
      const number = newNumber();
      await givePhoneNumber(email, number.e164);

      const page = await browser.newPage({ javaScriptEnabled });
      if (javaScriptEnabled) await openPage(page, "/login/phone");
      else await page.goto("/login/phone");
      await sendPhoneCode(page, number);
      await page.waitForURL((url) => url.pathname === "/login/two-step");
      // The texted code alone made no session: the account waits for its second factor.
      expect(await me(page)).toBeNull();
      await page.getByLabel("驗證碼").fill(await nextCode());
      await page.getByRole("button", { name: "驗證並登入" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      expect(((await (await page.request.get("/api/auth/me")).json()) as { user: { email: string } | null }).user?.email, `JavaScript ${javaScriptEnabled}`).toBe(email);
      await page.context().close();
    }
  });
});

describe("a phone number in the account center", () => {
  const browser = useBrowser();

  /** Adds a number in 登入方式 (a texted code, then that code), then removes it: the page says so each time. */
  async function addAndRemove(page: Page) {
    const methods = page.getByRole("region", { name: "登入方式" });
    const number = newNumber();
    await methods.getByLabel("手機號碼").fill("02-2345-6789");
    await methods.getByRole("button", { name: "傳送驗證碼" }).click();
    await methods.getByText("請輸入正確的手機號碼").first().waitFor();
    await addNumber(page, number);
    expect(((await (await page.request.get("/api/auth/me")).json()) as { user: { phoneNumber: string | null } }).user.phoneNumber).toBe(number.e164);

    await methods.getByRole("button", { name: "移除手機號碼" }).click();
    await page.getByRole("status").filter({ hasText: "手機號碼已移除" }).waitFor();
    expect(await methods.getByText(number.typed).count()).toBe(0);
    expect(((await (await page.request.get("/api/auth/me")).json()) as { user: { phoneNumber: string | null } }).user.phoneNumber).toBeNull();
  }

  it("adds a number with a texted code and removes it", async () => {
    const email = await createVerifiedAccount();
    const page = await browser.newPage();
    await signInByApi(page, email);
    await openPage(page, "/account");
    await addAndRemove(page);
  });

  it("does the same without JavaScript", async () => {
    const email = await createVerifiedAccount();
    const page = await browser.newPage({ javaScriptEnabled: false });
    await signInByApi(page, email);
    await page.goto("/account");
    await addAndRemove(page);
  });
});
