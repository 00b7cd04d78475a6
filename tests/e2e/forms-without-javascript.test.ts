import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newEmail, password, submitSignUp } from "./helpers/accounts";
import { baseURL, useBrowser } from "./helpers/browser";
import { linkTo, mailTo } from "./helpers/mailbox";

/**
 * Every sign-in and account form with JavaScript off (PRODUCT §5: every form works as a plain POST form before
 * the JavaScript arrives): the browser posts to the route action, the server answers with the next page, and
 * nothing typed ever shows in an address.
 */
describe("forms without JavaScript", () => {
  const browser = useBrowser();
  const noScript = () => browser.newPage({ javaScriptEnabled: false });
  const addresses: string[] = [];
  const track = (page: Page) => page.on("request", (request) => addresses.push(request.url()));

  async function signUp(page: Page, email: string) {
    await page.goto("/signup");
    await submitSignUp(page, email);
  }

  async function verifyByLink(page: Page, path: string) {
    await page.goto(path);
    await page.getByRole("button", { name: "完成驗證" }).click();
    await page.getByText("已完成驗證").waitFor();
  }

  it.each(["/login", "/signup", "/forgot-password", "/email-verification"])("posts %s's prerendered forms to its own address, not through a redirect", async (path) => {
    const html = await (await fetch(`${baseURL()}${path}`)).text();
    const actions = [...html.matchAll(/<form[^>]*\saction="([^"]*)"/g)].map((match) => match[1]);
    expect(actions.length).toBeGreaterThan(0);
    expect(new Set(actions)).toEqual(new Set([path]));
    const posted = await fetch(`${baseURL()}${path}`, { method: "POST", body: new URLSearchParams(), redirect: "manual" });
    expect(posted.status).not.toBe(308);
  });

  // With JavaScript on, a tap before hydration is kept for the hydrated page (defer-hydration.server.ts); when the
  // page's modules never arrive, the kept tap still submits the form as a plain POST.
  it("submits a form tapped while the page's modules are on their way, once they fail to load", async () => {
    const page = await browser.newPage();
    let failedAt = 0;
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      failedAt ||= Date.now();
      await route.abort();
    });
    const posts: number[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/login") posts.push(Date.now());
    });
    await page.goto("/login", { waitUntil: "domcontentloaded" });
    await page.getByRole("textbox", { name: "電子郵件" }).fill("not-an-email");
    await page.getByLabel("密碼").fill(password);
    await page.getByRole("button", { name: "登入", exact: true }).click();
    await page.getByText("電子郵件格式不正確").waitFor();
    // One plain POST, sent once the modules had failed: the tap was kept until then, not lost and not sent twice.
    expect(posts).toHaveLength(1);
    expect(failedAt).toBeGreaterThan(0);
    expect(posts[0]).toBeGreaterThanOrEqual(failedAt);
    // Released by the failure itself, not by the 15 s fallback.
    expect(posts[0]! - failedAt).toBeLessThan(10_000);
    await page.close();
  });

  it("signs up, resends the verification, verifies, logs in and out, with Chinese field errors", { timeout: 120_000 }, async () => {
    const page = await noScript();
    track(page);
    await page.goto("/signup");
    await page.getByRole("textbox", { name: "電子郵件" }).fill("not-an-email");
    await page.getByLabel("密碼", { exact: true }).fill("1qaz2wsx");
    await page.getByRole("button", { name: "註冊" }).click();
    await page.getByText("電子郵件格式不正確").waitFor();
    await page.getByText("請輸入顯示名稱").waitFor();
    expect(await page.getByRole("textbox", { name: "電子郵件" }).getAttribute("aria-invalid")).toBe("true");

    const email = newEmail();
    await signUp(page, email);
    await mailTo(email, /驗證/);
    // Signed in after sign-up, the server-rendered page already knows the address: it names it and resends to it.
    await page.getByText(`註冊完成！我們已寄送驗證信到 ${email}`).waitFor();
    expect(await page.getByRole("textbox", { name: "電子郵件" }).count()).toBe(0);
    await page.getByRole("button", { name: "重新寄送驗證信" }).click();
    await page.getByText("新的驗證信已經寄出").waitFor();
    const resent = await mailTo(email, /驗證/, 2);

    await verifyByLink(page, linkTo(resent, "/verify-email"));
    await page.context().close();

    const login = await noScript();
    track(login);
    await login.goto("/login?redirectTo=%2Ffaq");
    await login.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await login.getByLabel("密碼").fill("wrong-password-1");
    await login.getByRole("button", { name: "登入", exact: true }).click();
    await login.getByRole("alert").getByText("電子郵件或密碼錯誤").waitFor();
    await login.getByLabel("密碼").fill(password);
    await login.getByRole("button", { name: "登入", exact: true }).click();
    await login.waitForURL("**/faq");
    const cookies = await login.context().cookies();
    expect(cookies.find((cookie) => cookie.name.endsWith("session_token"))?.httpOnly).toBe(true);
    await login.context().close();
    expect(addresses.filter((address) => address.includes(encodeURIComponent(password)) || address.includes(password))).toEqual([]);
    expect(addresses.filter((address) => new URL(address).searchParams.has("password"))).toEqual([]);
  });

  it("signs in as a guest and upgrades the guest in place", async () => {
    const page = await noScript();
    await page.goto("/login");
    await page.getByRole("button", { name: "以訪客身分試用" }).click();
    await page.waitForURL(`${baseURL()}/`);
    const guest = await (await page.context().request.get("/api/auth/me")).json() as { user: { uid: string; isAnonymous: boolean } };
    expect(guest.user.isAnonymous).toBe(true);

    const email = newEmail();
    await signUp(page, email);
    const upgraded = await (await page.context().request.get("/api/auth/me")).json() as { user: { uid: string; isAnonymous: boolean; email: string } };
    expect(upgraded.user).toMatchObject({ uid: guest.user.uid, isAnonymous: false, email });
    await page.context().close();
  });

  it("asks for a reset link and sets a new password through it", async () => {
    const email = newEmail();
    const page = await noScript();
    await signUp(page, email);
    await verifyByLink(page, linkTo(await mailTo(email, /驗證/), "/verify-email"));

    await page.goto("/forgot-password");
    await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await page.getByRole("button", { name: "寄送重設密碼信" }).click();
    await page.getByText("重設密碼信已寄出").waitFor();

    await page.goto(linkTo(await mailTo(email, /重設/), "/reset-password"));
    await page.getByLabel("新密碼", { exact: true }).fill("short");
    await page.getByLabel("確認新密碼").fill("short");
    await page.getByRole("button", { name: "重設密碼" }).click();
    await page.getByText("密碼強度不足，至少需要 8 個字元").waitFor();
    await page.getByLabel("新密碼", { exact: true }).fill("brand-new-456");
    await page.getByLabel("確認新密碼").fill("brand-new-456");
    await page.getByRole("button", { name: "重設密碼" }).click();
    await page.waitForURL("**/login?reset=done");
    await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await page.getByLabel("密碼").fill("brand-new-456");
    await page.getByRole("button", { name: "登入", exact: true }).click();
    await page.waitForURL(`${baseURL()}/`);
    await page.context().close();
  });

  it("deletes a signed-in account after the confirmation word and the password", async () => {
    const email = newEmail();
    const page = await noScript();
    await signUp(page, email);
    await verifyByLink(page, linkTo(await mailTo(email, /驗證/), "/verify-email"));
    await page.goto("/account-deletion");
    const form = page.locator("form.deletion-form");
    await form.getByText(email).waitFor();
    await form.getByLabel("請輸入「刪除帳號」").fill("刪除帳號");
    await form.getByLabel("密碼").fill("wrong-password-1");
    await form.getByRole("button", { name: "永久刪除我的帳號" }).click();
    await page.locator("form.deletion-form").getByRole("alert").getByText("密碼不正確").waitFor();
    await page.locator("form.deletion-form").getByLabel("請輸入「刪除帳號」").fill("刪除帳號");
    await page.locator("form.deletion-form").getByLabel("密碼").fill(password);
    await page.locator("form.deletion-form").getByRole("button", { name: "永久刪除我的帳號" }).click();
    await page.getByRole("status").filter({ hasText: "你的帳號與資料已經刪除" }).waitFor();
    const me = await (await page.context().request.get("/api/auth/me")).json() as { user: unknown };
    expect(me.user).toBeNull();
    await page.context().close();
  });
});
