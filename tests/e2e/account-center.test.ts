import sharp from "sharp";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ageSessions, createVerifiedAccount, newEmail, password, signInByApi, signInTo } from "./helpers/accounts";
import { baseURL, expectNoAxeViolations, openPage, useBrowser } from "./helpers/browser";
import { linkTo, mailTo } from "./helpers/mailbox";

const accountPath = "/account";

/** Signs in on /login and lands on /account. */
async function signIn(page: Page, email: string, secret = password) {
  await signInTo(page, email, accountPath, secret);
  await page.getByRole("heading", { name: "個人資料" }).waitFor();
}

/**
 * Signed in through the sign-in API (for tests whose subject is /account, not the sign-in form), on /account: once
 * hydrated when the page runs scripts (as the sign-in form's own navigation left it).
 */
async function signedInOnAccount(page: Page, email: string, javaScript = true) {
  await signInByApi(page, email);
  if (javaScript) await openPage(page, accountPath);
  else await page.goto(accountPath);
  await page.getByRole("heading", { name: "個人資料" }).waitFor();
}

const region = (page: Page, name: string) => page.getByRole("region", { name });
/** The linked sign-in methods, each with when it was added. */
const linkedMethods = (page: Page) => region(page, "登入方式").getByRole("listitem").filter({ hasText: "加入於" });
const status = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text }).waitFor();

/** A 400 × 200 PNG: wider than tall, so the square crop has something to do. */
const widePhoto = async () =>
  sharp({ create: { width: 400, height: 200, channels: 3, background: { r: 30, g: 120, b: 220 } } }).png().toBuffer();

describe("account center", () => {
  const browser = useBrowser();
  /** A verified account, made in a browser of its own (the helper waits for the page's JavaScript). */
  const verifiedAccount = async () => {
    const email = await createVerifiedAccount();
    return email;
  };

  it("changes the display name and the photo (upload, replace, remove) without JavaScript", async () => {
    const email = await verifiedAccount();
    const page = await browser.newPage({ javaScriptEnabled: false });
    await signedInOnAccount(page, email, false);
    const profile = region(page, "個人資料");

    await profile.getByLabel("顯示名稱").fill("");
    await profile.getByRole("button", { name: "儲存顯示名稱" }).click();
    await page.getByText("請輸入顯示名稱").waitFor();
    await profile.getByLabel("顯示名稱").fill("小明爸爸");
    await profile.getByRole("button", { name: "儲存顯示名稱" }).click();
    await status(page, "顯示名稱已更新。");
    expect(await profile.getByLabel("顯示名稱").inputValue()).toBe("小明爸爸");

    await profile.getByLabel(/選擇新的大頭貼/).setInputFiles({ name: "wide.png", mimeType: "image/png", buffer: await widePhoto() });
    await profile.getByRole("button", { name: "上傳大頭貼" }).click();
    await status(page, "大頭貼已更新。");
    const image = profile.getByRole("img", { name: "小明爸爸的大頭貼" });
    const source = await image.getAttribute("src");
    const stored = await sharp(Buffer.from(await (await fetch(new URL(source ?? "", baseURL()))).arrayBuffer())).metadata();
    expect([stored.width, stored.height]).toEqual([256, 256]);

    // Not an image: the storage catalogue's sentence, nothing replaced.
    await profile.getByLabel(/選擇新的大頭貼/).setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not an image") });
    await profile.getByRole("button", { name: "更換大頭貼" }).click();
    await page.getByRole("alert").first().waitFor();
    expect(await profile.getByRole("img", { name: "小明爸爸的大頭貼" }).getAttribute("src")).toBe(source);

    await profile.getByRole("button", { name: "移除大頭貼" }).click();
    await status(page, "大頭貼已移除。");
    expect(await profile.getByRole("img", { name: /大頭貼/ }).count()).toBe(0);
    await page.context().close();
  });

  it("shows a square crop preview with JavaScript and uploads the chosen square", async () => {
    const page = await browser.newPage();
    const email = await createVerifiedAccount();
    await signedInOnAccount(page, email);
    const profile = region(page, "個人資料");
    await profile.getByLabel(/選擇新的大頭貼/).setInputFiles({ name: "wide.png", mimeType: "image/png", buffer: await widePhoto() });
    await profile.getByRole("img", { name: /裁切預覽/ }).waitFor();
    await profile.getByLabel("縮放").fill("2");
    await profile.getByLabel("左右位置").fill("0");
    await expectNoAxeViolations(page);
    await profile.getByRole("button", { name: "上傳大頭貼" }).click();
    await status(page, "大頭貼已更新。");
    const source = await profile.getByRole("img", { name: /的大頭貼$/ }).getAttribute("src");
    const stored = await sharp(Buffer.from(await (await fetch(new URL(source ?? "", baseURL()))).arrayBuffer())).metadata();
    expect([stored.width, stored.height]).toEqual([256, 256]);
    await page.context().close();
  });

  it("changes the email only once the link sent to the new address is opened, tells the old address, and keeps the session", async () => {
    const page = await browser.newPage();
    const email = await createVerifiedAccount();
    await signedInOnAccount(page, email);
    const section = region(page, "電子郵件");
    const next = newEmail();
    await section.getByLabel("新的電子郵件").fill(email);
    await section.getByRole("button", { name: "寄送確認信" }).click();
    await page.getByText("新的電子郵件與目前的相同").waitFor();

    await section.getByLabel("新的電子郵件").fill(next);
    await section.getByRole("button", { name: "寄送確認信" }).click();
    await status(page, `確認信已寄到 ${next}`);
    const confirmation = await mailTo(next, /請確認你的新電子郵件/);
    // Not yet: the account still uses the old address.
    await page.goto(accountPath);
    await section.getByText(email, { exact: true }).waitFor();

    await openPage(page, linkTo(confirmation, "/verify-email"));
    await page.getByText("已完成驗證").waitFor();
    await page.goto(accountPath);
    await region(page, "電子郵件").getByText(next, { exact: true }).waitFor();
    const notice = await mailTo(email, /安全通知：電子郵件已更改/);
    expect(notice.text).toContain(next);
    // A second use of the link changes nothing.
    await openPage(page, linkTo(confirmation, "/verify-email"));
    await page.getByText("此驗證連結已過期或已使用過。").waitFor();
    await page.context().close();
  });

  // Several round trips through the development provider's pages: allowed two minutes on a busy machine.
  it("links the development provider, removes the password, never the last method, and sets a password again", { timeout: 120_000 }, async () => {
    const email = await verifiedAccount();
    const page = await browser.newPage({ javaScriptEnabled: false });
    await signedInOnAccount(page, email, false);
    const methods = region(page, "登入方式");
    await linkedMethods(page).filter({ hasText: "電子郵件與密碼" }).getByText("這是唯一的登入方式，無法移除。").waitFor();

    await methods.getByRole("button", { name: "連結開發測試帳號" }).click();
    await page.getByRole("textbox", { name: "電子郵件" }).fill(newEmail());
    await page.getByRole("button", { name: "繼續" }).click();
    await page.waitForURL(`**${accountPath}?done=linked`);
    await status(page, "登入方式已連結。");
    expect(await mailTo(email, /安全通知：新增了登入方式/).then((mail) => mail.text)).toContain("開發測試帳號");
    await expect.poll(() => linkedMethods(page).count()).toBe(2);

    await linkedMethods(page).filter({ hasText: "電子郵件與密碼" }).getByRole("button", { name: "移除" }).click();
    await status(page, "登入方式已移除。");
    const left = linkedMethods(page);
    expect(await left.count()).toBe(1);
    await left.getByText("這是唯一的登入方式，無法移除。").waitFor();
    expect(await left.getByRole("button", { name: "移除" }).count()).toBe(0);
    await mailTo(email, /安全通知：移除了登入方式/);

    const setPassword = page.locator("form").filter({ has: page.getByRole("heading", { name: "設定密碼" }) });
    await setPassword.getByLabel("密碼", { exact: true }).fill("harbour-lantern-73");
    await setPassword.getByLabel("確認密碼").fill("harbour-lantern-73");
    await setPassword.getByRole("button", { name: "設定密碼" }).click();
    await status(page, "密碼已設定");
    expect(await linkedMethods(page).count()).toBe(2);
    await mailTo(email, /安全通知：已設定密碼/);
    // axe runs inside the page (it never finishes where scripts are off): the same session, with JavaScript.
    const checked = await browser.newPage();
    await checked.context().addCookies(await page.context().cookies());
    await openPage(checked, accountPath);
    await expect.poll(() => linkedMethods(checked).count()).toBe(2);
    await expectNoAxeViolations(checked);
    await checked.context().close();
    await page.context().close();
  });

  it("asks for the password again when the sign-in is older than ten minutes, then lets the change through", async () => {
    const email = await verifiedAccount();
    const page = await browser.newPage({ javaScriptEnabled: false });
    await signedInOnAccount(page, email, false);
    await ageSessions(email);
    const next = newEmail();
    await region(page, "電子郵件").getByLabel("新的電子郵件").fill(next);
    await region(page, "電子郵件").getByRole("button", { name: "寄送確認信" }).click();
    await page.getByRole("alert").filter({ hasText: "請先確認是你本人" }).waitFor();

    await page.getByRole("link", { name: "確認身分" }).click();
    await page.getByRole("heading", { name: "確認身分" }).waitFor();
    await page.getByLabel("密碼").fill("not-my-password");
    await page.getByRole("button", { name: "確認" }).click();
    await page.getByText("密碼不正確").waitFor();
    await page.getByLabel("密碼").fill(password);
    await page.getByRole("button", { name: "確認" }).click();
    await page.waitForURL((url) => url.pathname === accountPath);

    // The address typed before 確認身分 is still in the field: one tap sends it.
    expect(await region(page, "電子郵件").getByLabel("新的電子郵件").inputValue()).toBe(next);
    await region(page, "電子郵件").getByRole("button", { name: "寄送確認信" }).click();
    await status(page, `確認信已寄到 ${next}`);
    await page.context().close();
  });

  it("shows a copy of the account's data and offers it as JSON", async () => {
    const page = await browser.newPage();
    const email = await createVerifiedAccount();
    await signedInOnAccount(page, email);
    await page.getByRole("link", { name: "查看我的資料" }).click();
    await page.getByRole("heading", { name: "我的資料" }).waitFor();
    for (const heading of ["個人資料", "登入方式", "登入中的裝置", "許願池", "開發者部落格文章", "檔案"]) {
      await page.getByRole("heading", { name: heading, exact: true }).waitFor();
    }
    await page.getByText(email).first().waitFor();
    await expectNoAxeViolations(page);

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "下載 JSON 檔" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
    const copy = JSON.parse(await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8")));
    expect(copy.profile).toMatchObject({ email, emailVerified: true });
    expect(copy.signInMethods).toEqual([expect.objectContaining({ provider: "password" })]);
    expect(copy.sessions.some((session: { current: boolean; place: string }) => session.current && session.place === "本機網路")).toBe(true);
    expect(Object.keys(copy.features).sort()).toEqual(["family", "posts", "storage", "wishes"]);
    expect(JSON.stringify(copy)).not.toMatch(/token|password"\s*:\s*"|\$argon2/);

    const stranger = await fetch(`${baseURL()}/account/data.json`);
    expect(stranger.status).toBe(401);
    await page.context().close();
  });

  it("mails a notice when the account signs in from a browser it has not seen, and not for a browser it knows", async () => {
    const first = await browser.newPage();
    const email = await createVerifiedAccount();
    await signIn(first, email);
    const notices = async () =>
      ((await (await fetch(`${baseURL()}/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as { subject: string }[]).filter((mail) =>
        /新裝置登入/.test(mail.subject),
      ).length;
    // The account was made through the API (a client without cookies): this browser is already a new one.
    await expect.poll(notices).toBe(1);
    const second = await browser.newPage();
    await signIn(second, email);
    await expect.poll(notices).toBe(2);
    const notice = await mailTo(email, /安全通知：新裝置登入/);
    expect(notice.text).toMatch(/Linux 上的 Chrome \d+，本機網路，IP 位址/);
    expect(notice.links).toContain(`${baseURL()}/account/security`);

    // The same browser signing in again is not new.
    await second.context().clearCookies({ name: /session_token/ });
    await signIn(second, email);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await notices()).toBe(2);
    await first.context().close();
    await second.context().close();
  });
});
