import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createVerifiedAccount, newEmail } from "./helpers/accounts";
import { accountWithTwoStep } from "./helpers/two-step";
import { openPage, useBrowser } from "./helpers/browser";
import { mailTo } from "./helpers/mailbox";

/** The newest sign-in code mailed to `email` (the `count`-th such mail at least), read from the development mailbox. */
async function mailedCode(email: string, count = 1) {
  const mail = await mailTo(email, /登入驗證碼/, count);
  const code = /登入驗證碼是 (\d{6})/.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in ${mail.subject}`);
  return code;
}

const signedInEmail = async (page: Page) =>
  ((await (await page.request.get("/api/auth/me")).json()) as { user: { email: string } | null }).user?.email ?? null;

/** Sends /login/email-code's first form (the address) and waits for its answer, the same for any address. */
async function askCode(page: Page, email: string) {
  await page.getByRole("textbox", { name: "電子郵件", exact: true }).fill(email);
  await page.getByRole("button", { name: /寄送驗證碼$/ }).click();
  await page.getByRole("status").filter({ hasText: `如果 ${email} 有註冊帳號，驗證碼已經寄出` }).waitFor();
}

/** Types `code` into the second form and sends it. */
async function typeCode(page: Page, code: string) {
  await page.getByLabel("電子郵件驗證碼").fill(code);
  await page.getByRole("button", { name: "登入", exact: true }).click();
}

describe("email-code sign-in", () => {
  const browser = useBrowser();

  it("signs in with a mailed code from the login screen's link, and says a wrong code in Chinese", async () => {
    const email = await createVerifiedAccount();
    const page = await browser.newPage();
    await openPage(page, "/login?redirectTo=%2Fpricing");
    await page.getByRole("link", { name: "用電子郵件驗證碼登入" }).click();
    await page.waitForURL("**/login/email-code?redirectTo=%2Fpricing");
    await askCode(page, email);
    const code = await mailedCode(email);
    await typeCode(page, code === "000000" ? "111111" : "000000");
    await page.getByText("驗證碼無效").first().waitFor();
    await typeCode(page, code);
    await page.waitForURL((url) => url.pathname === "/pricing");
    expect(await signedInEmail(page)).toBe(email);
  });

  it("works without JavaScript, and answers an unknown address as a known one", async () => {
    const email = await createVerifiedAccount();
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto("/login");
    await page.getByRole("link", { name: "用電子郵件驗證碼登入" }).click();
    await page.waitForURL("**/login/email-code");
    await page.getByRole("textbox", { name: "電子郵件", exact: true }).fill("not-an-address");
    await page.getByRole("button", { name: "寄送驗證碼" }).click();
    await page.getByText("電子郵件格式不正確").first().waitFor();
    const unknown = newEmail();
    await askCode(page, unknown);
    await askCode(page, email);
    await typeCode(page, await mailedCode(email));
    await page.waitForURL((url) => url.pathname === "/");
    expect(await signedInEmail(page)).toBe(email);
    // Nothing was mailed to the unknown address, and no account was made for it.
    const mailbox = (await (await page.request.get(`/api/dev/mailbox?to=${encodeURIComponent(unknown)}`)).json()) as unknown[];
    expect(mailbox).toEqual([]);
  });

  it("asks an account with an authenticator app for its code after the mailed code, with and without JavaScript", { timeout: 180_000 }, async () => {
    const { email, nextCode } = await accountWithTwoStep(await browser.newPage());
    let mails = 0;
    for (const javaScriptEnabled of [true, false]) {
      const page = await browser.newPage({ javaScriptEnabled });
      if (javaScriptEnabled) await openPage(page, "/login/email-code");
      else await page.goto("/login/email-code");
      await askCode(page, email);
      mails += 1;
      await typeCode(page, await mailedCode(email, mails));
      await page.waitForURL((url) => url.pathname === "/login/two-step");
      // The mailed code alone made no session: the account waits for its second factor.
      expect(await signedInEmail(page)).toBeNull();
      await page.getByLabel("驗證碼").fill(await nextCode());
      await page.getByRole("button", { name: "驗證並登入" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      expect(await signedInEmail(page), `JavaScript ${javaScriptEnabled}`).toBe(email);
      await page.context().close();
    }
  });
});
