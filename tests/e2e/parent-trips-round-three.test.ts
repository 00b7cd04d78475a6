import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, mobileViewport, openPage, useBrowser } from "./helpers/browser";

// Where a parent tripped, round three (issue 41), on a 375 px phone: a phone-only account without a fake address,
// the copy of one's data complete and in Chinese, and deletion that names what goes.

/** A fresh Taiwanese mobile: its E.164 form (the mailbox key) and how a parent types it. */
export function newNumber() {
  const digits = String(Math.floor(Math.random() * 1e8)).padStart(8, "0");
  return { e164: `+8869${digits}`, typed: `09${digits.slice(0, 2)}-${digits.slice(2, 5)}-${digits.slice(5)}` };
}

/** The newest code texted to `e164`, read from the development mailbox's JSON. */
async function textedCode(e164: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const texts = (await (await fetch(`${baseURL()}/api/dev/mailbox?to=${encodeURIComponent(e164)}`)).json()) as { text: string }[];
    const code = texts.map((text) => /驗證碼是 (\d{6})/.exec(text.text)?.[1]).find(Boolean);
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no code texted to ${e164}`);
}

/** Signs up on /login/phone (a texted code and a display name) on a page of its own; signed in at the end. */
async function phoneParent(open: (options: { viewport: typeof mobileViewport; javaScriptEnabled?: boolean }) => Promise<Page>, name = "陳媽媽", javaScriptEnabled = true) {
  const number = newNumber();
  const page = await open({ viewport: mobileViewport, javaScriptEnabled });
  if (javaScriptEnabled) await openPage(page, "/login/phone");
  else await page.goto("/login/phone");
  await page.getByLabel("手機號碼").fill(number.typed);
  await page.getByRole("button", { name: "傳送驗證碼" }).click();
  await page.getByLabel("簡訊驗證碼").fill(await textedCode(number.e164));
  await page.getByLabel(/顯示名稱/).fill(name);
  await page.getByRole("button", { name: "登入", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/");
  return { page, number };
}

const bodyText = (page: Page) => page.locator("body").innerText();

describe("a phone-only parent, round three", () => {
  const browser = useBrowser();
  const open = (options: { viewport: typeof mobileViewport; javaScriptEnabled?: boolean }) => browser.newPage(options);

  it("sees no made-up address anywhere: 尚未設定電子郵件, 手機號碼 as the way in, 手機簡訊 under two-step", async () => {
    for (const javaScriptEnabled of [true, false]) {
      const { page, number } = await phoneParent(open, "陳媽媽", javaScriptEnabled);
      await page.goto("/account");
      const email = page.getByRole("region", { name: "電子郵件" });
      await email.getByText("尚未設定電子郵件").waitFor();
      const methods = page.getByRole("region", { name: "登入方式" });
      await methods.getByText(number.typed).waitFor();
      await methods.getByText("這個帳號目前用手機號碼登入").waitFor();
      expect(await methods.getByText("社群帳號").count()).toBe(0);
      for (const path of ["/account", "/account/security", "/account/two-step", "/account/passkeys", "/account/family", "/account/data"]) {
        await page.goto(path);
        expect(await bodyText(page), `${path}, JavaScript ${javaScriptEnabled}`).not.toMatch(/\.invalid|886\d{9}@/);
      }
      await page.goto("/account/security");
      await page.getByText(`目前登入的帳號：${number.typed}`).waitFor();
      await page.goto("/account/two-step");
      expect(await page.locator("main p").first().innerText()).toContain("手機簡訊");
      await page.context().close();
    }
  });
});
