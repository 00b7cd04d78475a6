import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { addVirtualAuthenticator, mobileViewport, openPage, useBrowser } from "./helpers/browser";
import { createVerifiedAccount, newEmail, newNumber, password, signInByApi } from "./helpers/accounts";
import { mailTo, textedCode } from "./helpers/mailbox";

// Where a parent tripped, round three (issue 41), on a 375 px phone: a phone-only account without a fake address,
// the copy of one's data complete and in Chinese, and deletion that names what goes.


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
const section = (page: Page, heading: string) => page.getByRole("region", { name: heading });

/** Gives the signed-in parent on `page` a passkey named `name` (a virtual authenticator) on 密碼金鑰. */
async function addPasskey(page: Page, name: string) {
  await addVirtualAuthenticator(page);
  await openPage(page, "/account/passkeys");
  await page.getByLabel("名稱（選填）").fill(name);
  await page.getByRole("button", { name: "新增密碼金鑰" }).click();
  await page.getByRole("status").filter({ hasText: "已新增密碼金鑰" }).waitFor();
}

/** Makes the family `familyName` with one child (a lion, consent given) for the signed-in parent on `page`. */
async function familyWithChild(page: Page, familyName: string, childName: string) {
  await openPage(page, "/account/family");
  await section(page, "建立家庭").getByLabel("家庭名稱").fill(familyName);
  await page.getByRole("button", { name: "建立家庭" }).click();
  await page.getByRole("heading", { name: familyName }).waitFor();
  const addChild = section(page, "新增孩子");
  await addChild.getByLabel("名字或暱稱").fill(childName);
  await addChild.getByLabel("出生年（西元）").fill(String(new Date().getFullYear() - 7));
  await addChild.getByRole("radio", { name: "獅子" }).check();
  await addChild.getByRole("checkbox", { name: /已閱讀並同意/ }).check();
  await addChild.getByRole("button", { name: "同意並新增" }).click();
  await section(page, "孩子").getByText(new RegExp(`${childName}（\\d{4} 年生）`)).waitFor();
}

describe("a phone-only parent, round three", () => {
  const browser = useBrowser();
  const open = (options: { viewport: typeof mobileViewport; javaScriptEnabled?: boolean }) => browser.newPage(options);

  it.each([true, false])("sees no made-up address anywhere: 尚未設定電子郵件, 手機號碼 as the way in, 手機簡訊 under two-step (JavaScript %s)", async (javaScriptEnabled) => {
    {
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

describe("the copy of my data, round three", () => {
  const browser = useBrowser();
  const open = (options: { viewport: typeof mobileViewport; javaScriptEnabled?: boolean }) => browser.newPage(options);

  it("holds the phone number, the passkeys and the family, in Chinese and Taiwan time on the page and complete in the JSON", async () => {
    const { page, number } = await phoneParent(open, "陳媽媽");
    await page.goto("/account/data");
    await section(page, "家庭").getByText("你還沒有加入家庭。").waitFor();

    await addPasskey(page, "媽媽的手機");
    await familyWithChild(page, "陳家", "小安");
    await openPage(page, "/account/data");
    const profile = section(page, "個人資料");
    await profile.getByText("尚未設定電子郵件").waitFor();
    await profile.getByText(number.typed).waitFor();
    await section(page, "密碼金鑰").getByText(/「媽媽的手機」/).waitFor();
    const family = section(page, "家庭");
    for (const words of ["陳家", "擁有者", "小安", "🦁 獅子", "同意紀錄", "同意時間", "由你同意", "同意時的 IP 位址", "加入時間"]) await family.getByText(words, { exact: true }).first().waitFor();
    const familyText = await family.innerText();
    // No raw field names or values, and no time but Taiwan's.
    expect(familyText).not.toMatch(/\b(family|role|owner|joinedAt|avatar|lion|consents|byYou|ipAddress|userAgent|noticeVersion|consentedAt)\b/);
    expect(await bodyText(page)).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);

    const copy = (await (await page.request.get("/account/data.json")).json()) as {
      profile: { email: string | null; phoneNumber: string | null };
      passkeys: { name: string; synced: boolean }[];
      features: { family: { family: { name: string; children: { name: string; consents: unknown[] }[] } } };
    };
    expect(copy.profile).toMatchObject({ email: null, phoneNumber: number.e164 });
    expect(copy.passkeys.map((key) => key.name)).toEqual(["媽媽的手機"]);
    expect(copy.features.family.family.name).toBe("陳家");
    expect(copy.features.family.family.children[0]).toMatchObject({ name: "小安" });
    expect(copy.features.family.family.children[0]!.consents).toHaveLength(1);
    expect(JSON.stringify(copy)).not.toContain(".invalid");
    await page.context().close();
  });
});

describe("deletion that names what goes, round three", () => {
  const browser = useBrowser();

  it("names the family, its child and consent record, and the passkey before and after, on the page and in the mail", async () => {
    const email = await createVerifiedAccount(newEmail(), "陳爸爸");
    const page = await browser.newPage({ viewport: mobileViewport });
    await signInByApi(page, email);
    await addPasskey(page, "爸爸的筆電");
    await familyWithChild(page, "陳家", "小安");
    await openPage(page, "/account-deletion");
    const form = page.getByRole("region", { name: "自行刪除帳號" }).or(page.locator("form.deletion-form"));
    const familyLine = "家庭「陳家」，1 位孩子（小安）和 1 筆同意紀錄：你是這個家庭唯一的家長，家庭會一起刪除";
    await form.getByText(familyLine).first().waitFor();
    await form.getByText("1 把密碼金鑰（「爸爸的筆電」）").first().waitFor();
    await page.getByLabel("請輸入「刪除帳號」").fill("刪除帳號");
    await page.getByLabel("密碼").fill(password);
    await page.getByRole("button", { name: "永久刪除我的帳號" }).click();
    await page.getByText("家庭「陳家」，1 位孩子（小安）和 1 筆同意紀錄：你是這個家庭唯一的家長，家庭已一起刪除").waitFor();
    const mail = await mailTo(email, /你的帳號已刪除/);
    expect(mail.text).toContain("家庭「陳家」，1 位孩子（小安）和 1 筆同意紀錄");
    expect(mail.text).toContain("「爸爸的筆電」");
    await page.context().close();
  });
});

describe("a phone-only parent from sign-up to deletion, round three", () => {
  const browser = useBrowser();
  const open = (options: { viewport: typeof mobileViewport; javaScriptEnabled?: boolean }) => browser.newPage(options);
  const uidOf = async (page: Page) => ((await (await page.request.get("/api/auth/me")).json()) as { user: { uid: string } | null }).user?.uid;

  it("signs up by texted code at 375 px, reads the copy of the data, and deletes the account by the word alone", async () => {
    const { page, number } = await phoneParent(open, "林媽媽");
    const uid = await uidOf(page);
    await openPage(page, "/account/data");
    await section(page, "個人資料").getByText(number.typed).waitFor();
    const copy = (await (await page.request.get("/account/data.json")).json()) as { profile: { email: string | null; phoneNumber: string | null; displayName: string } };
    expect(copy.profile).toMatchObject({ email: null, phoneNumber: number.e164, displayName: "林媽媽" });

    await openPage(page, "/account-deletion");
    await page.getByText(`手機號碼 ${number.typed}`).first().waitFor();
    // No password to give: the account never had one.
    expect(await page.getByLabel("密碼").count()).toBe(0);
    await page.getByLabel("請輸入「刪除帳號」").fill("刪除帳號");
    await page.getByRole("button", { name: "永久刪除我的帳號" }).click();
    await page.getByText("你的帳號與資料已經刪除").waitFor();
    await page.getByText(`手機號碼 ${number.typed}`).waitFor();
    expect(await uidOf(page)).toBeUndefined();
    expect(await bodyText(page)).not.toMatch(/\.invalid/);

    expect(uid).toBeTruthy();
    await page.context().close();
  });
});
