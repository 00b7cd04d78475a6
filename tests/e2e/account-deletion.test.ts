import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { startReferenceApp, type ReferenceApp } from "~tests/fixtures/reference-app";
import { baseURL, familyHeaders, openPage, useBrowser } from "./helpers/browser";
import { createVerifiedAccount, newEmail, password, signInHere } from "./helpers/accounts";
import { e2eApps } from "./helpers/apps";
import { mailTo } from "./helpers/mailbox";

/**
 * Deletion as the stores ask for it, in Chromium on the suite's site: from a browser signed in nowhere at the public
 * address (/account-deletion: sign in, delete, the confirmation mail, the account gone), and started in the app
 * (the reference client, openid-client): its access token gets an address that brings the parent, after signing in,
 * to the deletion page for that very account.
 */
describe("deletion the stores accept", () => {
  const browser = useBrowser();
  const newPage = () => browser.newPage();
  const apps: ReferenceApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  /** Types the confirmation and the password, deletes, and waits for the page to say it is done. */
  async function deleteHere(page: Page) {
    await page.getByLabel("請輸入「刪除帳號」").fill("刪除帳號");
    await page.getByLabel("密碼").fill(password);
    await page.getByRole("button", { name: "永久刪除我的帳號" }).click();
    await page.getByText("你的帳號與資料已經刪除").waitFor();
  }

  /** The account is gone: its password no longer signs in, and the confirmation mail arrived. */
  async function expectGone(email: string) {
    const mail = await mailTo(email, /帳號已刪除/);
    expect(mail.links.some((link) => new URL(link).pathname === "/account-deletion")).toBe(true);
    const origin = baseURL();
    const signIn = await fetch(`${origin}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json", origin, ...familyHeaders() }, body: JSON.stringify({ email, password }) });
    expect(signIn.status).toBe(401);
  }

  it("a parent signed in nowhere opens the public address, signs in, deletes the account and gets the mail", async () => {
    const page = await newPage();
    const email = await createVerifiedAccount(newEmail(), "陳媽媽");
    await page.context().clearCookies();
    await openPage(page, "/account-deletion");
    // It says what is deleted and how long it takes before anything else.
    await page.getByRole("heading", { name: "會刪除的資料" }).waitFor();
    await page.getByRole("heading", { name: "需要多久" }).waitFor();
    await page.locator("#main").getByRole("link", { name: "登入" }).click();
    await page.waitForURL((url) => url.pathname === "/login");
    await signInHere(page, email, "/account-deletion");
    await deleteHere(page);
    await expectGone(email);
    await page.context().close();
  }, 60_000);

  it("the app starts deletion with its access token: the parent signs in and lands on the page for that account", async () => {
    let page = await newPage();
    const email = await createVerifiedAccount(newEmail(), "張爸爸");
    // The app signs in through the site (the browser signed in nowhere goes through the sign-in screen).
    const app = await startReferenceApp({ issuer: baseURL(), reachAt: baseURL(), host: "127.0.0.1", port: 0, clientId: e2eApps.family.client_id, pngBytes: Buffer.alloc(0) });
    apps.push(app);
    await page.context().clearCookies();
    await page.goto(`${app.origin}/`);
    await page.waitForURL((url) => url.pathname === "/login");
    await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await page.getByLabel("密碼").fill(password);
    await page.getByRole("button", { name: "登入", exact: true }).click();
    await page.waitForURL(`${app.origin}/`);
    const accessToken = app.tokens()?.access_token ?? "";
    await page.context().close();

    const start = (token?: string) => fetch(`${baseURL()}/api/app/account-deletion`, { method: "POST", headers: token ? { authorization: `Bearer ${token}` } : {} });
    const refused = await start("not-a-token");
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: "account/unauthorized" } });
    const answer = await start(accessToken);
    expect(answer.status).toBe(201);
    const { url, expires_in } = (await answer.json()) as { url: string; expires_in: number };
    expect(expires_in).toBe(600);
    expect(new URL(url).pathname).toBe("/account-deletion/from-app");

    // Another parent signed in on this browser is told it is not the app's account.
    page = await newPage();
    const otherEmail = newEmail();
    await createVerifiedAccount(otherEmail, "別的家長");
    await page.goto(`/login?redirectTo=${encodeURIComponent("/account")}`);
    await signInHere(page, otherEmail, "/account");
    await page.goto(url);
    await page.waitForURL((next) => next.pathname === "/account-deletion" && next.searchParams.get("app") === "other-account");
    await page.getByText("這個瀏覽器登入的不是你在 App 中登入的帳號").waitFor();
    await page.context().close();

    // A browser signed in nowhere: the address asks for a sign-in first, then opens the page for this parent.
    page = await newPage();
    await page.goto(url);
    await page.waitForURL((next) => next.pathname === "/login" && (next.searchParams.get("redirectTo") ?? "").startsWith("/account-deletion/from-app?ticket="));
    await signInHere(page, email, "/account-deletion?app=confirmed");
    await page.getByText("你從 App 開啟了這一頁").waitFor();
    await page.getByText(`目前登入的帳號：${email}`).waitFor();
    await deleteHere(page);
    await expectGone(email);
    // The app's token ended with the account, and the address works once.
    expect((await fetch(`${baseURL()}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(401);
    await page.goto(url);
    await page.waitForURL((next) => next.pathname === "/account-deletion" && next.searchParams.get("app") === "expired");
    await page.context().close();
  }, 90_000);
});
