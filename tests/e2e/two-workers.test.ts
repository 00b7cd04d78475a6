import { randomUUID } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchServer, type LaunchedServer } from "~tests/helpers/launch-server.mjs";
import { addVirtualAuthenticator, launchChromium, playwrightTimeout } from "./helpers/browser";
import { e2ePort } from "./setup/server";

/**
 * Every way in, end to end in Chromium, against the site as a default `npm start` runs it on a two-core machine:
 * two worker processes sharing the port, each request's connection handed to either. Whatever one worker keeps
 * (the development provider's signing key and pending sign-ins, Better Auth's state) must hold in the other: a
 * pop-up's sign-in page, its form and the server's token exchange may each reach another worker.
 */
const password = "family-123";
const newEmail = () => `workers-${randomUUID().slice(0, 8)}@example.tw`;

describe("every way in, on two worker processes", () => {
  let server: LaunchedServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await launchServer({
      port: e2ePort + 5,
      buildDir: process.env.BUILD_DIR || "build-test",
      env: { WEB_CONCURRENCY: "2", RATE_LIMIT_SIGN_UP_PER_IP: "1000/60", RATE_LIMIT_AUTH_PER_IP: "100000/60", RATE_LIMIT_GUEST_PER_IP: "1000/60" },
      timeoutMs: 60_000,
    });
    const deadline = Date.now() + 60_000;
    while ((server.output().match(/網站已啟動/g) ?? []).length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.output().match(/網站已啟動/g)?.length).toBe(2);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A fresh browser profile: its own connections, so its requests reach either worker. */
  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.origin, locale: "zh-TW" });
    context.setDefaultTimeout(playwrightTimeout());
    contexts.push(context);
    return context.newPage();
  }

  async function open(page: Page, path: string) {
    await page.goto(path);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  }

  async function mailLink(to: string, subject: RegExp, path: string): Promise<string> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const mails = (await (await fetch(`${server.origin}/api/dev/mailbox?to=${encodeURIComponent(to)}`)).json()) as { subject: string; links: string[] }[];
      const link = mails.find((mail) => subject.test(mail.subject))?.links.find((candidate) => new URL(candidate).pathname === path);
      if (link) return `${new URL(link).pathname}${new URL(link).search}`;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no mail to ${to}`);
  }

  /** The server's log lines about the provider's sign-in, for a failure's message. */
  const signInLines = () =>
    server
      .output()
      .split("\n")
      .filter((line) => /dev-oidc|callback|"level":[456]0/.test(line))
      .slice(-12)
      .join("\n");

  const me = async (page: Page) => ((await (await page.request.get("/api/auth/me")).json()) as { user: { email: string | null; isAnonymous?: boolean } | null }).user;

  /** Signs up with a password, opens the mailed link, and signs in again with the password. */
  async function passwordAccount(): Promise<{ page: Page; email: string }> {
    const email = newEmail();
    const page = await newPage();
    await open(page, "/signup");
    await page.getByLabel("顯示名稱").fill("小明");
    await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await page.getByLabel("密碼", { exact: true }).fill(password);
    await page.getByLabel("確認密碼").fill(password);
    await page.getByRole("button", { name: "註冊" }).click();
    await page.waitForURL((url) => url.pathname === "/email-verification").catch(async (error: unknown) => {
      throw new Error(`sign-up stayed on ${page.url()}: ${(await page.locator("main").innerText()).slice(0, 400)}`, { cause: error });
    });
    await open(page, await mailLink(email, /驗證/, "/verify-email"));
    await page.getByText("已完成驗證").waitFor();
    return { page, email };
  }

  it("password: signs up, verifies through the mailed link, and signs in again", async () => {
    const { email } = await passwordAccount();
    const page = await newPage();
    await open(page, "/login?redirectTo=%2Fpricing");
    await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await page.getByLabel("密碼").fill(password);
    await page.getByRole("button", { name: "登入", exact: true }).click();
    await page.waitForURL("**/pricing");
    expect(await me(page)).toMatchObject({ email });
  });

  it("social: signs in through the development provider's pop-up, three times in fresh browsers", { timeout: 240_000 }, async () => {
    for (let round = 0; round < 3; round += 1) {
      const email = newEmail();
      const page = await newPage();
      await open(page, "/login?redirectTo=%2Fpricing");
      const popupOpened = page.waitForEvent("popup");
      await page.getByRole("button", { name: "使用開發測試帳號登入" }).click();
      const popup = await popupOpened;
      await popup.getByRole("textbox", { name: "電子郵件" }).fill(email);
      await popup.getByRole("button", { name: "繼續" }).click();
      // Generous: the first round also starts each worker's provider (its discovery, its key) on a busy machine.
      await page.waitForURL("**/pricing", { timeout: 60_000 }).catch(async (error: unknown) => {
        const popupState = popup.isClosed() ? "closed" : `${popup.url()}: ${(await popup.locator("body").innerText().catch(() => "")).slice(0, 300)}`;
        const pageText = (await page.locator("main").innerText().catch(() => "")).slice(0, 300);
        throw new Error(`round ${round}: page stayed on ${page.url()} (${pageText}); pop-up ${popupState}; server: ${signInLines()}`, { cause: error });
      });
      expect(await me(page), `round ${round}`).toMatchObject({ email });
    }
  });

  it("linking: a signed-in parent links the development provider from the account screen", { timeout: 120_000 }, async () => {
    const { page } = await passwordAccount();
    await open(page, "/account");
    await page.getByRole("button", { name: "連結開發測試帳號" }).click();
    const popupOrPage = await Promise.race([
      page.waitForEvent("popup").then((popup) => popup),
      page.getByRole("textbox", { name: "電子郵件" }).waitFor().then(() => page),
    ]);
    await popupOrPage.getByRole("textbox", { name: "電子郵件" }).fill(newEmail());
    await popupOrPage.getByRole("button", { name: "繼續" }).click();
    await page.waitForURL((url) => url.pathname === "/account" && url.searchParams.get("done") === "linked");
    await page.getByText("登入方式已連結。").waitFor();
    expect(await page.getByText("登入請求已取消").count()).toBe(0);
  });

  it("guest: starts as a guest", async () => {
    const page = await newPage();
    await open(page, "/login");
    await page.getByRole("button", { name: "以訪客身分試用" }).click();
    await page.waitForURL(`${server.origin}/`);
    expect(await me(page)).toMatchObject({ isAnonymous: true });
  });

  it("email link: the mailed link signs in", async () => {
    const { email } = await passwordAccount();
    const page = await newPage();
    await open(page, "/login/email-link");
    await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await page.getByRole("button", { name: "寄送登入連結" }).click();
    await page.getByRole("status").filter({ hasText: "登入連結已經寄出" }).waitFor();
    await open(page, await mailLink(email, /登入連結/, "/login/email-link"));
    await page.getByRole("button", { name: "登入" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    expect(await me(page)).toMatchObject({ email });
  });

  it("passkey: registers a passkey and signs in with it", { timeout: 120_000 }, async () => {
    const { page, email } = await passwordAccount();
    await addVirtualAuthenticator(page);
    // Signed in since the sign-up a moment ago: recent enough to add a passkey.
    await open(page, "/account/passkeys");
    await page.getByLabel("名稱（選填）").fill("我的筆電");
    await page.getByRole("button", { name: "新增密碼金鑰" }).click();
    await page.getByRole("status").filter({ hasText: "已新增密碼金鑰" }).waitFor();
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
    });
    await open(page, "/login");
    await page.getByRole("button", { name: "登出" }).click();
    await page.getByRole("button", { name: "登入", exact: true }).waitFor();
    await page.getByRole("button", { name: "使用密碼金鑰登入" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    expect(await me(page)).toMatchObject({ email });
  });
});
