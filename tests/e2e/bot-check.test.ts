import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchServer, type LaunchedServer } from "~tests/helpers/launch-server.mjs";
import { e2ePort } from "./setup/server";
import { newEmail, password } from "./helpers/accounts";
import { mailTo } from "./helpers/mailbox";
import { familyHeaders, mobileViewport, useBrowser, waitForHydration } from "./helpers/browser";

/**
 * The bot check as a parent meets it, on a site of its own with the default proof of work on (the suite's server
 * turns it off): with JavaScript the forms solve the challenge by themselves; without it they still work, up to
 * RATE_LIMIT_NO_SCRIPT_PER_IP from one address.
 */
describe("the bot check", () => {
  let server: LaunchedServer;
  const browser = useBrowser();
  beforeAll(async () => {
    server = await launchServer({
      port: e2ePort + 8,
      buildDir: process.env.BUILD_DIR || "build-test",
      env: { BOT_CHECK: "proof-of-work", TRUSTED_PROXIES: "127.0.0.1,::1", RATE_LIMIT_NO_SCRIPT_PER_IP: "2/3600" },
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  const page = (options: { javaScriptEnabled?: boolean; headers?: Record<string, string>; viewport?: { width: number; height: number } } = {}) =>
    browser.newPage({
      baseURL: server.origin, javaScriptEnabled: options.javaScriptEnabled ?? true, extraHTTPHeaders: options.headers ?? familyHeaders(),
      ...(options.viewport ? { viewport: options.viewport } : {}),
    });

  async function fillSignUp(on: Page, email: string) {
    await on.getByLabel("顯示名稱").fill("小明");
    await on.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await on.getByLabel("密碼", { exact: true }).fill(password);
    await on.getByLabel("確認密碼").fill(password);
  }

  it("is solved by the sign-up page itself, and never loaded by the home page", { timeout: 60_000 }, async () => {
    const visitor = await page();
    const challenges: string[] = [];
    visitor.on("request", (request) => void (request.url().includes("/bot-check/challenge") && challenges.push(request.url())));
    await visitor.goto("/");
    await waitForHydration(visitor);
    expect(challenges).toEqual([]);

    await visitor.goto("/signup");
    await waitForHydration(visitor);
    const started = Date.now();
    await visitor.locator('input[name="botCheck"][data-bot-check="solved"]').waitFor({ state: "attached", timeout: 30_000 });
    console.info(`bot check solved in ${Date.now() - started} ms`);
    expect(challenges.length).toBe(1);
    const email = newEmail();
    await fillSignUp(visitor, email);
    await visitor.getByRole("button", { name: "註冊" }).click();
    await visitor.waitForURL((url) => url.pathname === "/email-verification");
    await visitor.getByText("註冊完成").waitFor();

    // A new verification link is a mail to whoever asks: the screen solves a challenge of its own first.
    await visitor.locator('input[name="botCheck"][data-bot-check="solved"]').waitFor({ state: "attached", timeout: 30_000 });
    await visitor.getByRole("button", { name: "重新寄送驗證信" }).click();
    await visitor.getByText("新的驗證信已經寄出").waitFor();
    await mailTo(email, /驗證/, 2, server.origin);
  });

  it("lets a guest in and sends a reset mail with JavaScript", { timeout: 60_000 }, async () => {
    const visitor = await page();
    await visitor.goto("/login");
    await waitForHydration(visitor);
    await visitor.locator('input[name="botCheck"][data-bot-check="solved"]').waitFor({ state: "attached", timeout: 30_000 });
    await visitor.getByRole("button", { name: "以訪客身分試用" }).click();
    await visitor.waitForURL((url) => url.pathname === "/");
    const me = (await (await visitor.request.get("/api/auth/me")).json()) as { user: { isAnonymous: boolean } | null };
    expect(me.user?.isAnonymous).toBe(true);

    const other = await page();
    await other.goto("/forgot-password");
    await waitForHydration(other);
    await other.locator('input[name="botCheck"][data-bot-check="solved"]').waitFor({ state: "attached", timeout: 30_000 });
    await other.getByRole("textbox", { name: "電子郵件" }).fill(newEmail());
    await other.getByRole("button", { name: /寄送/ }).click();
    await other.getByText("重設密碼信已寄出").waitFor();
  });

  it("takes forms without JavaScript from one address up to its stricter limit, then says why in Chinese", { timeout: 60_000 }, async () => {
    const address = familyHeaders();
    for (let sent = 0; sent < 2; sent += 1) {
      const plain = await page({ javaScriptEnabled: false, headers: address });
      await plain.goto("/signup");
      await fillSignUp(plain, newEmail());
      await plain.getByRole("button", { name: "註冊" }).click();
      await plain.waitForURL((url) => url.pathname === "/email-verification");
      await plain.context().close();
    }
    const plain = await page({ javaScriptEnabled: false, headers: address });
    await plain.goto("/signup");
    await fillSignUp(plain, newEmail());
    const [answer] = await Promise.all([plain.waitForResponse((response) => response.request().method() === "POST"), plain.getByRole("button", { name: "註冊" }).click()]);
    expect(answer.status()).toBe(429);
    await plain.getByText("沒有開啟 JavaScript 時，這個網路每小時只能送出幾次").waitFor();

    // With JavaScript the same address still signs up: the solved challenge is the proof.
    const scripted = await page({ headers: address });
    await scripted.goto("/signup");
    await waitForHydration(scripted);
    await scripted.locator('input[name="botCheck"][data-bot-check="solved"]').waitFor({ state: "attached", timeout: 30_000 });
    await fillSignUp(scripted, newEmail());
    await scripted.getByRole("button", { name: "註冊" }).click();
    await scripted.waitForURL((url) => url.pathname === "/email-verification");
  });

  /** A page whose challenge comes `ms` late (a slow network or a busy server), with the address it sends from. */
  async function slowChallengePage(ms: number, address: Record<string, string>) {
    const visitor = await page({ headers: address, viewport: mobileViewport });
    await visitor.route("**/bot-check/challenge**", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      await route.continue();
    });
    return visitor;
  }

  /** The form's POST and what its `botCheck` field held. */
  const botCheckSent = (on: Page) =>
    on.waitForRequest((request) => request.method() === "POST" && !new URL(request.url()).pathname.startsWith("/api/")).then((request) => new URLSearchParams(request.postData() ?? "").get("botCheck") ?? "");

  /** Two forms without JavaScript from `address` both go through: its allowance (2 an hour here) is untouched. */
  async function noScriptAllowanceUntouched(address: Record<string, string>) {
    for (let sent = 0; sent < 2; sent += 1) {
      const plain = await page({ javaScriptEnabled: false, headers: address });
      await plain.goto("/signup");
      await fillSignUp(plain, newEmail());
      const [answer] = await Promise.all([plain.waitForResponse((response) => response.request().method() === "POST"), plain.getByRole("button", { name: "註冊" }).click()]);
      expect(answer.status(), `form ${sent + 1} without JavaScript`).not.toBe(429);
      await plain.waitForURL((url) => url.pathname === "/email-verification");
      await plain.context().close();
    }
  }

  it("holds a sign-up sent before the check is solved, says 安全檢查中…, then sends it solved by itself", { timeout: 90_000 }, async () => {
    const address = familyHeaders();
    const visitor = await slowChallengePage(6_000, address);
    // Filled and tapped as soon as the page shows: a tap before hydration is kept and played then (root.tsx).
    await visitor.goto("/signup");
    const email = newEmail();
    await fillSignUp(visitor, email);
    expect(await visitor.locator('input[name="botCheck"]').getAttribute("data-bot-check")).toBe("pending");
    const sent = botCheckSent(visitor);
    await visitor.getByRole("button", { name: "註冊" }).scrollIntoViewIfNeeded();
    const before = await visitor.getByRole("button", { name: "註冊" }).boundingBox();
    await visitor.getByRole("button", { name: "註冊" }).click();
    const waiting = visitor.getByRole("button", { name: "安全檢查中…" });
    await waiting.waitFor();
    expect(await waiting.isDisabled()).toBe(true);
    // The same button in the same place and size, at 375 px: the words change, nothing moves.
    expect(await waiting.boundingBox()).toEqual(before);
    expect(await sent).not.toBe("");
    await visitor.waitForURL((url) => url.pathname === "/email-verification", { timeout: 60_000 });
    await visitor.getByText("註冊完成").waitFor();
    await mailTo(email, /驗證/, 1, server.origin);
    await noScriptAllowanceUntouched(address);
  });

  it("holds /login/phone's 傳送驗證碼 the same way", { timeout: 90_000 }, async () => {
    const address = familyHeaders();
    const visitor = await slowChallengePage(6_000, address);
    await visitor.goto("/login/phone");
    await visitor.getByLabel("手機號碼").fill(`09${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`);
    const sent = botCheckSent(visitor);
    await visitor.getByRole("button", { name: "傳送驗證碼" }).click();
    await visitor.getByRole("button", { name: "安全檢查中…" }).waitFor();
    expect(await sent).not.toBe("");
    await visitor.getByText(/驗證碼已傳到/).waitFor({ timeout: 60_000 });
    await visitor.getByLabel("簡訊驗證碼").waitFor();
    await noScriptAllowanceUntouched(address);
  });

  it("holds the other forms' early taps too (忘記密碼), without the button's words", { timeout: 90_000 }, async () => {
    const visitor = await slowChallengePage(6_000, familyHeaders());
    await visitor.goto("/forgot-password");
    await visitor.getByRole("textbox", { name: "電子郵件" }).fill(newEmail());
    const sent = botCheckSent(visitor);
    await visitor.getByRole("button", { name: /寄送/ }).click();
    expect(await sent).not.toBe("");
    await visitor.getByText("重設密碼信已寄出").waitFor({ timeout: 60_000 });
  });

  it("refuses the JSON API without a solved challenge", async () => {
    const answer = await fetch(`${server.origin}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.origin, ...familyHeaders() },
      body: JSON.stringify({ email: newEmail(), password, name: "小明" }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: "auth/missing-bot-check" });
  });
});
