import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ageSessions, createVerifiedAccount, newEmail, password } from "./helpers/accounts";
import { addVirtualAuthenticator, expectNoAxeViolations, openPage, saveScreenshot, useBrowser } from "./helpers/browser";
import { linkTo, mailTo } from "./helpers/mailbox";
import { authenticatorApp } from "~tests/helpers/authenticator-app";

/**
 * Passkeys, two-step sign-in and email links, as a parent uses them in Chromium. With SCREENSHOT_DIR set
 * (`npm run screenshots:sign-in`), each step the closing walk-through names is saved there as a PNG.
 */

async function signInWithPassword(page: Page, email: string, redirectTo: string) {
  await openPage(page, `/login?redirectTo=${encodeURIComponent(redirectTo)}`);
  await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
  await page.getByLabel("密碼").fill(password);
  await page.getByRole("button", { name: "登入", exact: true }).click();
}

describe("two-step sign-in", () => {
  const browser = useBrowser();

  it("is turned on with the QR code's secret and a first code, then asked of the password, the email link and the social way in", async () => {
    const page = await browser.newPage();
    const email = await createVerifiedAccount();
    await signInWithPassword(page, email, "/account/security");
    await page.waitForURL("**/account/security");
    await saveScreenshot(page, "01-account-security", { fullPage: true, onlyForDocs: true });
    await page.getByRole("link", { name: "兩步驟驗證" }).click();
    await page.getByRole("heading", { name: "尚未開啟" }).waitFor();
    await saveScreenshot(page, "02-two-step-start", { fullPage: true, onlyForDocs: true });

    await page.getByLabel("目前的密碼").fill("not-my-password");
    await page.getByRole("button", { name: "開始設定" }).click();
    await page.getByText("密碼不正確").waitFor();
    await page.getByLabel("目前的密碼").fill(password);
    await page.getByRole("button", { name: "開始設定" }).click();
    await page.getByRole("img", { name: "兩步驟驗證的 QR 碼" }).waitFor();
    expect(await page.getByRole("img", { name: "兩步驟驗證的 QR 碼" }).locator("svg").count()).toBe(1);
    const secret = (await page.locator(".two-step-secret code").textContent()) ?? "";
    expect(secret).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
    const enrolmentCodes = await page.locator(".two-step-codes code").allTextContents();
    expect(enrolmentCodes).toHaveLength(10);
    await saveScreenshot(page, "03-two-step-qr-code", { fullPage: true, onlyForDocs: true });
    await expectNoAxeViolations(page);

    const app = authenticatorApp(secret);
    // A typo keeps the QR code on screen.
    await page.getByRole("textbox", { name: "驗證碼" }).fill("12345");
    await page.getByRole("button", { name: "確認並開啟" }).click();
    await page.getByText("請輸入驗證器 App 顯示的 6 位數字").waitFor();
    await page.getByRole("textbox", { name: "驗證碼" }).fill(await app());
    await page.getByRole("button", { name: "確認並開啟" }).click();
    await page.getByRole("status").filter({ hasText: "兩步驟驗證已開啟" }).waitFor();
    await saveScreenshot(page, "04-two-step-on", { fullPage: true, onlyForDocs: true });
    expect((await mailTo(email, /已開啟兩步驟驗證/)).subject).toBe("【任務小勇士】安全通知：已開啟兩步驟驗證");

    // A new set of backup codes, on the password: the set shown at enrolment stops working.
    await page.getByLabel("密碼", { exact: true }).fill(password);
    await page.getByRole("button", { name: "產生新的備用碼" }).click();
    await page.getByRole("status").filter({ hasText: "已產生 10 組新的備用碼" }).waitFor();
    const backupCodes = await page.locator(".two-step-codes code").allTextContents();
    expect(backupCodes).toHaveLength(10);
    expect(backupCodes.filter((code) => enrolmentCodes.includes(code))).toEqual([]);

    // Password: the code page, then the account; this device is remembered.
    const phone = await browser.newPage();
    await signInWithPassword(phone, email, "/account/security");
    await phone.waitForURL("**/login/two-step?redirectTo=%2Faccount%2Fsecurity");
    await saveScreenshot(phone, "05-login-two-step", { fullPage: true, onlyForDocs: true });
    await expectNoAxeViolations(phone);
    await phone.getByLabel("驗證碼").fill(await app());
    await phone.getByRole("checkbox", { name: /30 天內不再詢問/ }).check();
    await phone.getByRole("button", { name: "驗證並登入" }).click();
    await phone.waitForURL("**/account/security");
    await phone.getByText(`目前登入的帳號：${email}`).waitFor();
    // Signed out and back in on the remembered device: no code.
    await openPage(phone, "/login");
    await phone.getByRole("button", { name: "登出" }).click();
    // Signed out once the sign-in form is back: opening the next page before then would cut the sign-out short.
    await phone.getByRole("button", { name: "登入", exact: true }).waitFor();
    await signInWithPassword(phone, email, "/account/security");
    await phone.waitForURL("**/account/security");

    // Without JavaScript, with a backup code: one of the replaced set is refused, a new one works once.
    for (const [attempt, code] of [["replaced", enrolmentCodes[0]], ["first", backupCodes[0]], ["again", backupCodes[0]]] as const) {
      const plain = await browser.newPage({ javaScriptEnabled: false });
      await plain.goto("/login?redirectTo=%2Faccount%2Fsecurity");
      await plain.getByRole("textbox", { name: "電子郵件" }).fill(email);
      await plain.getByLabel("密碼").fill(password);
      await plain.getByRole("button", { name: "登入", exact: true }).click();
      await plain.waitForURL("**/login/two-step**");
      await plain.getByText("手機不在身邊？改用備用碼").click();
      await plain.getByLabel("備用碼").fill(code ?? "");
      await plain.getByRole("button", { name: "使用備用碼登入" }).click();
      if (attempt === "first") {
        await plain.waitForURL("**/account/security");
        await plain.getByText(`目前登入的帳號：${email}`).waitFor();
      } else {
        await plain.getByText("備用碼不正確，或已經用過了").waitFor();
      }
      await plain.context().close();
    }

    // An emailed link is one factor too: its button leads to the code page.
    const mailed = await browser.newPage();
    await openPage(mailed, "/login/email-link");
    await mailed.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await mailed.getByRole("button", { name: "寄送登入連結" }).click();
    await mailed.getByRole("status").filter({ hasText: "登入連結已經寄出" }).waitFor();
    await openPage(mailed, linkTo(await mailTo(email, /登入連結/), "/login/email-link"));
    await mailed.getByRole("button", { name: "登入" }).click();
    await mailed.waitForURL("**/login/two-step");
    await mailed.getByLabel("驗證碼").fill(await app());
    await mailed.getByRole("button", { name: "驗證並登入" }).click();
    await mailed.waitForURL((url) => url.pathname === "/");

    // A social sign-in (the development provider links the same email) goes on to the code page too.
    const social = await browser.newPage();
    await openPage(social, "/login?redirectTo=%2Fpricing");
    const popupOpened = social.waitForEvent("popup");
    await social.getByRole("button", { name: "使用開發測試帳號登入" }).click();
    const popup = await popupOpened;
    await popup.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await popup.getByRole("button", { name: "繼續" }).click();
    await social.waitForURL("**/login/two-step?redirectTo=%2Fpricing");
    expect(await social.evaluate(() => fetch("/api/auth/me").then((answer) => answer.json()))).toMatchObject({ user: null });
    await social.getByText("手機不在身邊？改用備用碼").click();
    await social.getByLabel("備用碼").fill(backupCodes[2] ?? "");
    await social.getByRole("button", { name: "使用備用碼登入" }).click();
    await social.waitForURL("**/pricing");

    // Turned off with the password (no JavaScript): the next sign-in asks for no code.
    const plain = await browser.newPage({ javaScriptEnabled: false });
    await plain.goto("/login?redirectTo=%2Faccount%2Ftwo-step");
    await plain.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await plain.getByLabel("密碼").fill(password);
    await plain.getByRole("button", { name: "登入", exact: true }).click();
    await plain.getByText("手機不在身邊？改用備用碼").click();
    await plain.getByLabel("備用碼").fill(backupCodes[1] ?? "");
    await plain.getByRole("button", { name: "使用備用碼登入" }).click();
    await plain.waitForURL("**/account/two-step");
    await plain.getByLabel("目前的密碼").fill(password);
    await plain.getByRole("button", { name: "關閉兩步驟驗證" }).click();
    await plain.getByRole("status").filter({ hasText: "兩步驟驗證已關閉" }).waitFor();
    expect((await mailTo(email, /已關閉兩步驟驗證/)).text).toContain("你的帳號剛剛關閉了兩步驟驗證");
    const later = await browser.newPage();
    await signInWithPassword(later, email, "/account/security");
    await later.waitForURL("**/account/security");
    for (const open of [page, phone, mailed, social, plain, later]) await open.context().close();
    // Codes are never reused, so the test may wait for the app's next step: more time than the default.
  }, 150_000);
});

describe("email-link sign-in", () => {
  const browser = useBrowser();

  it("mails a link without JavaScript, answers an unknown address the same, and signs in once on the button", async () => {
    const email = await createVerifiedAccount();
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto("/login");
    await page.getByRole("link", { name: "用電子郵件連結登入" }).click();
    await page.waitForURL("**/login/email-link");
    await saveScreenshot(page, "09-email-link-request", { fullPage: true, onlyForDocs: true });
    for (const address of [newEmail(), email]) {
      await page.getByRole("textbox", { name: "電子郵件" }).fill(address);
      await page.getByRole("button", { name: "寄送登入連結" }).click();
      await page.getByRole("status").filter({ hasText: `如果 ${address} 有註冊帳號，登入連結已經寄出` }).waitFor();
    }
    const link = linkTo(await mailTo(email, /登入連結/), "/login/email-link");

    // A mail scanner opening the link (twice) spends nothing; the button signs in.
    await page.goto(link);
    await page.goto(link);
    await saveScreenshot(page, "10-email-link-button", { fullPage: true, onlyForDocs: true });
    await page.getByRole("button", { name: "登入" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    const me = await page.request.get("/api/auth/me");
    expect((await me.json()) as unknown).toMatchObject({ user: { email } });

    const again = await browser.newPage({ javaScriptEnabled: false });
    await again.goto(link);
    await again.getByRole("button", { name: "登入" }).click();
    await again.getByText("連結無效、已過期或已使用過，請重新申請").waitFor();
    await page.context().close();
    await again.context().close();
  });
});

describe("a form held for its bot check", () => {
  const browser = useBrowser();

  it("sends the emailed link once when tapped before the check is in, shows 安全檢查中… meanwhile, and keeps its answer", async () => {
    const email = await createVerifiedAccount();
    const page = await browser.newPage();
    // The check's challenge comes late, as on a slow phone or a busy server: the tap is held until it is in.
    let releaseChallenge: () => void = () => undefined;
    const challengeHeld = new Promise<void>((resolve) => (releaseChallenge = resolve));
    await page.route("**/api/auth/bot-check/challenge", async (route) => {
      await challengeHeld;
      await route.continue();
    });
    await openPage(page, "/login/email-link");
    await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await page.getByRole("button", { name: "寄送登入連結" }).click();
    await page.getByRole("status").filter({ hasText: "安全檢查中…" }).waitFor();
    releaseChallenge();
    const sent = page.getByRole("status").filter({ hasText: "登入連結已經寄出" });
    await sent.waitFor();
    // The next round's check comes in after the answer; the form must not send itself again.
    await page.waitForTimeout(1_500);
    expect(await sent.isVisible()).toBe(true);
    expect(await page.getByRole("alert").count()).toBe(0);
    const mails = (await (await page.request.get(`/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as { subject: string }[];
    expect(mails.filter((mail) => /登入連結/.test(mail.subject))).toHaveLength(1);
    await page.context().close();
  });
});

describe("passkeys", () => {
  const browser = useBrowser();

  async function signOut(page: Page) {
    await openPage(page, "/login");
    await page.getByRole("button", { name: "登出" }).click();
    await page.getByRole("button", { name: "登入", exact: true }).waitFor();
  }

  it("registers, renames and removes a passkey, and signs in with it by autofill and by the button", async () => {
    const page = await browser.newPage();
    await addVirtualAuthenticator(page);
    const email = await createVerifiedAccount();
    await signInWithPassword(page, email, "/account/passkeys");
    await page.waitForURL("**/account/passkeys");
    await page.getByText("還沒有密碼金鑰。").waitFor();
    await saveScreenshot(page, "06-passkeys-empty", { fullPage: true, onlyForDocs: true });
    await page.getByLabel("名稱（選填）").fill("我的筆電");
    await page.getByRole("button", { name: "新增密碼金鑰" }).click();
    await page.getByRole("status").filter({ hasText: "已新增密碼金鑰" }).waitFor();
    await page.getByText("我的筆電", { exact: true }).waitFor();
    await saveScreenshot(page, "07-passkey-added", { fullPage: true, onlyForDocs: true });
    expect((await mailTo(email, /新增了密碼金鑰/)).text).toContain("你的帳號剛剛新增了一把密碼金鑰「我的筆電」");
    await expectNoAxeViolations(page);

    await page.getByLabel("新名稱").fill("客廳的電腦");
    await page.getByRole("button", { name: "改名" }).click();
    await page.getByRole("status").filter({ hasText: "已改名為「客廳的電腦」" }).waitFor();

    // Autofill: once signed out, the login screen's waiting request is answered from the email field's
    // suggestions (the virtual authenticator picks the one passkey) and the browser is signed in again.
    await openPage(page, "/login");
    await page.getByRole("button", { name: "登出" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    expect(((await (await page.request.get("/api/auth/me")).json()) as { user: { email: string } }).user.email).toBe(email);

    // The button, on a browser without passkey autofill.
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
    });
    await signOut(page);
    await saveScreenshot(page, "08-login-passkey", { fullPage: true, onlyForDocs: true });
    await page.getByRole("button", { name: "使用密碼金鑰登入" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    expect(((await (await page.request.get("/api/auth/me")).json()) as { user: { email: string } }).user.email).toBe(email);

    await openPage(page, "/account/passkeys");
    await page.getByText("最近使用").first().waitFor();
    await page.getByRole("button", { name: "移除" }).click();
    await page.getByRole("status").filter({ hasText: "已移除密碼金鑰「客廳的電腦」" }).waitFor();
    await page.getByText("還沒有密碼金鑰。").waitFor();
    expect((await mailTo(email, /移除了密碼金鑰/)).text).toContain("「客廳的電腦」");
    // The removed passkey is gone from the device too (the Signal API), so it cannot even be offered.
    await signOut(page);
    await page.getByRole("button", { name: "使用密碼金鑰登入" }).click();
    await page.getByText("已取消使用密碼金鑰").waitFor();
    await page.context().close();
  });

  it("asks for a recent sign-in before adding or removing a passkey, with and without JavaScript, confirmed by the password or a passkey", async () => {
    const page = await browser.newPage();
    await addVirtualAuthenticator(page);
    const email = await createVerifiedAccount();
    await signInWithPassword(page, email, "/account/passkeys");
    await page.waitForURL("**/account/passkeys");

    // Eleven minutes later: adding one asks who it is first; the password confirms and leads back.
    await ageSessions(email);
    await page.getByRole("button", { name: "新增密碼金鑰" }).click();
    await page.getByRole("alert").filter({ hasText: "請先確認是你本人" }).waitFor();
    await page.getByRole("link", { name: "確認身分" }).click();
    await page.getByRole("heading", { name: "確認身分" }).waitFor();
    await page.getByLabel("密碼").fill(password);
    await page.getByRole("button", { name: "確認", exact: true }).click();
    await page.waitForURL("**/account/passkeys");
    await page.getByLabel("名稱（選填）").fill("我的筆電");
    await page.getByRole("button", { name: "新增密碼金鑰" }).click();
    await page.getByRole("status").filter({ hasText: "已新增密碼金鑰" }).waitFor();

    // Without JavaScript, removing it later meets the same message and the same way on.
    const plain = await browser.newPage({ javaScriptEnabled: false });
    await plain.goto("/login?redirectTo=%2Faccount%2Fpasskeys");
    await plain.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await plain.getByLabel("密碼").fill(password);
    await plain.getByRole("button", { name: "登入", exact: true }).click();
    await plain.waitForURL("**/account/passkeys");
    await ageSessions(email);
    await plain.getByRole("button", { name: "移除" }).click();
    await plain.getByRole("alert").filter({ hasText: "請先確認是你本人" }).waitFor();
    expect(await plain.getByRole("link", { name: "確認身分" }).getAttribute("href")).toBe("/account/confirm-identity?redirectTo=%2Faccount%2Fpasskeys");
    await plain.context().close();

    // With JavaScript the passkey itself confirms, and the removal goes through.
    await openPage(page, "/account/passkeys");
    await page.getByRole("button", { name: "移除" }).click();
    await page.getByRole("link", { name: "確認身分" }).click();
    await page.getByRole("button", { name: "用密碼金鑰確認" }).click();
    await page.waitForURL("**/account/passkeys");
    // At once after the page's load, while it hydrates: the tap is kept and played once it has (defer-hydration).
    await page.getByRole("button", { name: "移除" }).click();
    await page.getByRole("status").filter({ hasText: "已移除密碼金鑰「我的筆電」" }).waitFor();
    expect((await mailTo(email, /移除了密碼金鑰/)).text).toContain("「我的筆電」");
    await page.context().close();
  });

  it("asks the browser to save a passkey by itself right after a password sign-in (conditional create), never holding the sign-in up", async () => {
    const page = await browser.newPage();
    await addVirtualAuthenticator(page);
    // What the page asks of navigator.credentials.create, written down before Chromium answers.
    await page.addInitScript(() => {
      const asked: string[] = [];
      const create = navigator.credentials.create.bind(navigator.credentials);
      navigator.credentials.create = (options) => (asked.push((options as { mediation?: string } | undefined)?.mediation ?? "required"), create(options));
      Object.assign(window, { createAsked: asked });
    });
    const email = await createVerifiedAccount();
    await signInWithPassword(page, email, "/account/passkeys");
    await page.waitForURL("**/account/passkeys");
    expect(await page.evaluate(async () => (await PublicKeyCredential.getClientCapabilities()).conditionalCreate)).toBe(true);
    await expect.poll(() => page.evaluate(() => (window as unknown as { createAsked: string[] }).createAsked)).toEqual(["conditional"]);
    // Chromium saves one only after its own password manager filled the form, which a test cannot do: it declines,
    // and the parent sees nothing of it.
    await page.getByText("還沒有密碼金鑰。").waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);
    // A sign-in by another way asks nothing of the sort.
    await signOut(page);
    await page.getByRole("button", { name: "以訪客身分試用" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    expect(await page.evaluate(() => (window as unknown as { createAsked: string[] }).createAsked)).toEqual([]);
    await page.context().close();
  });

  it("tells the browser which passkeys still count and the account's new name (the WebAuthn Signal API)", async () => {
    const page = await browser.newPage();
    const device = await addVirtualAuthenticator(page);
    // Each signal the page sends is written down, then handed on to Chromium's own.
    await page.addInitScript(() => {
      const calls: [string, unknown][] = [];
      const api = PublicKeyCredential as unknown as Record<string, (options: unknown) => Promise<void>>;
      const native = ["signalAllAcceptedCredentials", "signalCurrentUserDetails"].filter((name) => typeof api[name] === "function");
      for (const name of native) {
        const real = api[name]!.bind(PublicKeyCredential);
        api[name] = (options) => (calls.push([name, options]), real(options));
      }
      Object.assign(window, { passkeySignals: calls, nativeSignals: native });
    });
    const signals = () => page.evaluate(() => (window as unknown as { passkeySignals: [string, Record<string, unknown>][] }).passkeySignals);
    const lastSignal = async (name: string) => (await signals()).filter(([called]) => called === name).at(-1)?.[1];
    const email = await createVerifiedAccount();
    await signInWithPassword(page, email, "/account/passkeys");
    await page.waitForURL("**/account/passkeys");
    expect(await page.evaluate(() => (window as unknown as { nativeSignals: string[] }).nativeSignals)).toEqual(["signalAllAcceptedCredentials", "signalCurrentUserDetails"]);
    const { uid } = ((await (await page.request.get("/api/auth/me")).json()) as { user: { uid: string } }).user;
    const userId = Buffer.from(uid).toString("base64url");
    const rpId = new URL(page.url()).hostname;
    await expect.poll(() => lastSignal("signalAllAcceptedCredentials")).toEqual({ rpId, userId, allAcceptedCredentialIds: [] });

    await page.getByLabel("名稱（選填）").fill("我的筆電");
    await page.getByRole("button", { name: "新增密碼金鑰" }).click();
    await page.getByRole("status").filter({ hasText: "已新增密碼金鑰" }).waitFor();
    await expect.poll(async () => ((await lastSignal("signalAllAcceptedCredentials"))?.allAcceptedCredentialIds as string[]).length).toBe(1);
    expect(await lastSignal("signalCurrentUserDetails")).toEqual({ rpId, userId, name: email, displayName: "測試編輯" });
    expect(await device.credentialCount()).toBe(1);

    await page.getByRole("button", { name: "移除" }).click();
    await page.getByRole("status").filter({ hasText: "已移除密碼金鑰「我的筆電」" }).waitFor();
    await expect.poll(() => lastSignal("signalAllAcceptedCredentials")).toEqual({ rpId, userId, allAcceptedCredentialIds: [] });
    // Chromium takes the removed passkey off the device: the phone's list matches ours.
    await expect.poll(() => device.credentialCount()).toBe(0);

    await openPage(page, "/account");
    await page.getByLabel("顯示名稱").fill("林媽媽");
    await page.getByRole("button", { name: "儲存顯示名稱" }).click();
    await page.getByRole("status").filter({ hasText: "顯示名稱已更新" }).waitFor();
    await expect.poll(() => lastSignal("signalCurrentUserDetails")).toEqual({ rpId, userId, name: email, displayName: "林媽媽" });
    await page.context().close();
  });

  it("says why adding a passkey needs JavaScript", async () => {
    const setup = await browser.newPage();
    const email = await createVerifiedAccount();
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto("/login?redirectTo=%2Faccount%2Fpasskeys");
    await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await page.getByLabel("密碼").fill(password);
    await page.getByRole("button", { name: "登入", exact: true }).click();
    await page.waitForURL("**/account/passkeys");
    // Said in <noscript>, which a browser without JavaScript shows (Chromium's emulation here only parses it).
    expect(await page.locator("form noscript").textContent()).toContain("新增密碼金鑰需要開啟瀏覽器的 JavaScript");
    // The form is there as with JavaScript (nothing moves when the scripts arrive), its button waiting disabled.
    expect(await page.getByRole("button", { name: "新增密碼金鑰" }).isDisabled()).toBe(true);
    expect(await page.getByText("還沒有密碼金鑰。").isVisible()).toBe(true);
    await setup.context().close();
    await page.context().close();
  });
});
