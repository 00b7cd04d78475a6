import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createVerifiedAccount, newEmail, password, signInTo, signUp } from "./helpers/accounts";
import { baseURL, expectNoAxeViolations, openPage, useBrowser } from "./helpers/browser";
import { linkTo, mailTo } from "./helpers/mailbox";
import { runOperatorScript } from "./helpers/operator";

const securityPath = "/account/security";
const newPassword = "harbour-lantern-73";

/** Signs in on /login (with or without JavaScript) and lands on the account security screen. */
async function signIn(page: Page, email: string, secret = password) {
  await signInTo(page, email, securityPath, secret);
  await page.getByRole("heading", { name: "登入中的裝置" }).waitFor();
}

/** The answer of the sign-in API for `email` with `secret`. */
const signInStatus = async (email: string, secret: string) =>
  (
    await fetch(`${baseURL()}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: baseURL() },
      body: JSON.stringify({ email, password: secret }),
    })
  ).status;

/** After a reload, the screen asks this browser to sign in: its session is gone. */
async function expectSignedOut(page: Page) {
  await page.reload();
  await page.getByRole("heading", { name: "登入後管理帳號安全" }).waitFor();
  expect(await page.getByRole("heading", { name: "登入中的裝置" }).count()).toBe(0);
}

const devices = (page: Page) => page.getByRole("region", { name: "登入中的裝置" }).getByRole("listitem");

describe("account security", () => {
  const browser = useBrowser();

  it("changes the password without JavaScript; the old password stops working and the other browser is signed out", async () => {
    const other = await browser.newPage();
    const email = await createVerifiedAccount();
    await signIn(other, email);
    const page = await browser.newPage({ javaScriptEnabled: false });
    await signIn(page, email);
    const form = page.locator("form").filter({ has: page.getByLabel("目前的密碼") });
    expect(await form.getByRole("checkbox", { name: /同時登出其他所有裝置/ }).isChecked()).toBe(true);

    await form.getByLabel("目前的密碼").fill("not-my-password");
    await form.getByLabel("新密碼", { exact: true }).fill(newPassword);
    await form.getByLabel("確認新密碼").fill(newPassword);
    await form.getByRole("button", { name: "更新密碼" }).click();
    await form.getByText("目前的密碼不正確").waitFor();
    expect(await form.getByLabel("目前的密碼").getAttribute("aria-invalid")).toBe("true");

    await form.getByLabel("目前的密碼").fill(password);
    await form.getByLabel("新密碼", { exact: true }).fill(newPassword);
    await form.getByLabel("確認新密碼").fill(newPassword);
    await form.getByRole("button", { name: "更新密碼" }).click();
    await page.getByRole("status").filter({ hasText: "密碼已更新，其他裝置都已登出。" }).waitFor();
    expect(await devices(page).count()).toBe(1);

    await expectSignedOut(other);
    expect(await signInStatus(email, password)).toBe(401);
    expect(await signInStatus(email, newPassword)).toBe(200);
    await page.context().close();
    await other.context().close();
  });

  it("lists the devices of two browsers, the current one marked, and signs the other one out", async () => {
    // Signed up in a browser (an account made through the API would show one more device, the API's).
    const other = await browser.newPage();
    const email = newEmail();
    await signUp(other, email);
    await openPage(other, linkTo(await mailTo(email, /驗證/), "/verify-email"));
    await other.getByText("已完成驗證").waitFor();
    await openPage(other, securityPath);
    const page = await browser.newPage();
    await signIn(page, email);
    await openPage(page, securityPath);

    await expect.poll(() => devices(page).count()).toBe(2);
    const current = devices(page).filter({ hasText: "目前這個裝置" });
    await expect(current.textContent()).resolves.toMatch(/Linux 上的 Chrome \d+.*本機網路.*登入時間\d{4} 年 \d{1,2} 月 \d{1,2} 日 \d{2}:\d{2}.*最近使用/);
    expect(await current.getByRole("button").count()).toBe(0);
    expect(await page.content()).not.toMatch(/session_token|"token"/);
    await expectNoAxeViolations(page);

    // It asks first (issue 32): 登出這個裝置 opens the question, 確定登出 ends the other browser's session.
    const otherDevice = devices(page).filter({ hasNotText: "目前這個裝置" });
    await otherDevice.getByText("登出這個裝置").click();
    await otherDevice.getByRole("button", { name: "確定登出" }).click();
    await page.getByRole("status").filter({ hasText: "已登出這個裝置。" }).waitFor();
    expect(await devices(page).count()).toBe(1);
    await page.getByText("只有這個裝置登入你的帳號。").waitFor();
    await expectSignedOut(other);
    await expectNoAxeViolations(page);

    // The operator's command (ASVS 7.4.5) ends what is left, this browser included.
    const result = runOperatorScript("scripts/user-sign-out.mjs", [email]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain(`已登出 ${email}，共結束 1 個登入中的工作階段`);
    await expectSignedOut(page);
    await page.context().close();
    await other.context().close();
  });

  it("offers an account without a password (social sign-in) a link to set one instead", async () => {
    const page = await browser.newPage();
    const email = newEmail();
    await openPage(page, `/login?redirectTo=${encodeURIComponent(securityPath)}`);
    const popupOpened = page.waitForEvent("popup");
    await page.getByRole("button", { name: "使用開發測試帳號登入" }).click();
    const popup = await popupOpened;
    await popup.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await popup.getByRole("button", { name: "繼續" }).click();
    await page.waitForURL(`**${securityPath}`);
    await page.getByText("這個帳號還沒有密碼").waitFor();
    expect(await page.getByLabel("目前的密碼").count()).toBe(0);

    await page.getByRole("button", { name: "寄送設定密碼信" }).click();
    await page.getByRole("status").filter({ hasText: "設定密碼的連結已經寄出" }).waitFor();
    expect(linkTo(await mailTo(email, /密碼/), "/reset-password")).toMatch(/^\/reset-password\?/);
    await page.context().close();
  });

  it("asks a guest to sign up or sign in, and keeps 帳號安全 out of the guest's menu", async () => {
    const page = await browser.newPage();
    await openPage(page, `/login?redirectTo=${encodeURIComponent(securityPath)}`);
    await page.getByRole("button", { name: "以訪客身分試用" }).click();
    await page.waitForURL(`**${securityPath}`);
    await page.getByText("你正以訪客身分試用").waitFor();
    const main = page.getByRole("main");
    expect(await main.getByRole("link", { name: "免費註冊" }).getAttribute("href")).toBe("/signup?redirectTo=%2Faccount%2Fsecurity");
    expect(await main.getByRole("link", { name: "登入", exact: true }).getAttribute("href")).toBe("/login?redirectTo=%2Faccount%2Fsecurity");
    expect(await page.getByRole("link", { name: "帳號安全", includeHidden: true }).count()).toBe(0);
    await page.context().close();
  });
});
