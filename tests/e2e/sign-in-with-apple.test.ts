import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchServer, type LaunchedServer } from "~tests/helpers/launch-server.mjs";
import { appleEnv, startFakeApple, type FakeApple } from "~tests/fixtures/fake-apple";
import { startReferenceApp, type ReferenceApp } from "~tests/fixtures/reference-app";
import { launchChromium, playwrightTimeout, waitForHydration } from "./helpers/browser";
import { e2eApps, e2eOidcClients } from "./helpers/apps";
import { password, signInHere } from "./helpers/accounts";
import { linkTo, mailTo } from "./helpers/mailbox";
import { e2ePort } from "./setup/server";

/**
 * Sign in with Apple in Chromium against a fake Apple on another loopback origin (tests/fixtures/fake-apple.ts):
 * the button as Apple draws it, the pop-up through Apple's page, whose form posts back cross-site
 * (response_mode=form_post) with the `user` JSON the first time only, the client secret checked by the fake; the
 * app (openid-client) signing in through the site with Apple; deletion, after which the site revokes Apple's
 * token; and Apple linked to a password account from the account screen. The site is its own server here (Apple configured turns the development provider off): E2E_PORT+3, the
 * fake Apple E2E_PORT+4.
 */
let browser: Browser;
let apple: FakeApple;
let server: LaunchedServer;
let app: ReferenceApp | undefined;

beforeAll(async () => {
  apple = await startFakeApple({ port: e2ePort + 4 });
  server = await launchServer({
    port: e2ePort + 3,
    buildDir: process.env.BUILD_DIR || "build-test",
    // Google beside Apple, to compare the buttons (Google itself is never reached).
    env: { ...appleEnv(apple), GOOGLE_CLIENT_ID: "e2e-google-client", GOOGLE_CLIENT_SECRET: "e2e-google-secret", OIDC_CLIENTS: e2eOidcClients },
  });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await server?.stop();
  await apple?.close();
});

const site = () => server.origin;
// The bare /login is prerendered with the build's configuration (no Apple there); with a destination it is
// rendered by this server.
const login = (redirectTo: string) => `${site()}/login?${new URLSearchParams({ redirectTo })}`;

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ locale: "zh-TW" });
  context.setDefaultTimeout(playwrightTimeout());
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error(`[page error] ${error.message}`));
  return page;
}

/** Clicks the Apple button; Apple's page in the pop-up posts its form back by itself. */
async function signInWithApple(page: Page) {
  const popupOpened = page.waitForEvent("popup");
  await page.getByRole("button", { name: "透過 Apple 登入" }).click();
  const popup = await popupOpened;
  const posted = popup.waitForRequest((request) => request.method() === "POST" && request.url().startsWith(`${site()}/api/auth/callback/apple`));
  return { popup, posted: await posted };
}

const meOf = async (page: Page) =>
  page.evaluate(async () => (await (await fetch("/api/auth/me")).json()) as { user: { uid: string; email: string; emailVerified: boolean; displayName: string } | null });

it("the Apple button: first, white logo and words on black, as large as the others", async () => {
  const page = await newPage();
  await page.goto(login("/account"));
  const buttons = page.locator(".auth-actions button");
  // The passkey button comes first in the server's HTML (held until the browser is known to support passkeys).
  expect(await buttons.allTextContents()).toEqual(["使用密碼金鑰登入", "透過 Apple 登入", "使用 Google 登入", "以訪客身分試用"]);
  const appleButton = page.getByRole("button", { name: "透過 Apple 登入" });
  const look = await appleButton.evaluate((button) => {
    const style = getComputedStyle(button);
    return { background: style.backgroundColor, color: style.color, logo: Boolean(button.querySelector("svg")) };
  });
  expect(look).toEqual({ background: "rgb(0, 0, 0)", color: "rgb(255, 255, 255)", logo: true });
  const [appleBox, googleBox] = [await appleButton.boundingBox(), await page.getByRole("button", { name: "使用 Google 登入" }).boundingBox()];
  expect(appleBox?.width).toBe(googleBox?.width);
  expect(appleBox?.height).toBe(googleBox?.height);
  await page.context().close();
});

it("signs in through Apple's form post in a pop-up, keeps the name sent the first time only, and the app signs in with Apple", async () => {
  apple.person = { sub: "001122.e2e.0001", email: "e2e-apple@privaterelay.appleid.com", firstName: "小美", lastName: "林" };
  let page = await newPage();
  await page.goto(login("/pricing"));
  await waitForHydration(page);
  let { posted } = await signInWithApple(page);
  // Apple's page posted across sites, with its name and address: the `user` JSON, this once.
  expect(posted.headers().origin).toBe(apple.origin);
  expect(new URLSearchParams(posted.postData() ?? "").get("user")).toContain("小美");
  await page.waitForURL(`${site()}/pricing`);
  const first = (await meOf(page)).user;
  expect(first).toMatchObject({ email: apple.person.email, emailVerified: true, displayName: "林小美" });
  await page.context().close();

  // Signing in again (a new browser): Apple sends no name; the account keeps the first one.
  page = await newPage();
  await page.goto(login("/account"));
  await waitForHydration(page);
  ({ posted } = await signInWithApple(page));
  expect(new URLSearchParams(posted.postData() ?? "").has("user")).toBe(false);
  await page.waitForURL(`${site()}/account`);
  expect((await meOf(page)).user).toMatchObject({ uid: first?.uid, displayName: "林小美" });
  await page.context().close();

  // The app signs in through the site's provider, where the parent picks Apple.
  app = await startReferenceApp({ issuer: site(), reachAt: site(), host: "127.0.0.1", port: 0, clientId: e2eApps.family.client_id, pngBytes: Buffer.alloc(0) });
  page = await newPage();
  await page.goto(`${app.origin}/`);
  await page.waitForURL((url) => url.pathname === "/login" && (url.searchParams.get("redirectTo") ?? "").startsWith("/oidc/interaction/"));
  await waitForHydration(page);
  await signInWithApple(page);
  await page.waitForURL(`${app.origin}/`);
  expect(await page.locator("#name").textContent()).toBe("林小美");
  expect(apple.refusedSecrets).toEqual([]);
  await page.context().close();
}, 90_000);

it("deleting the account revokes Apple's token at Apple, and the confirmation goes to the relay address", async () => {
  apple.person = { sub: "001122.e2e.0002", email: "e2e-apple-2@privaterelay.appleid.com", firstName: "Anna", lastName: "Chen" };
  const page = await newPage();
  await page.goto(login("/account-deletion"));
  await waitForHydration(page);
  await signInWithApple(page);
  await page.waitForURL(`${site()}/account-deletion`);
  await page.getByLabel("請輸入「刪除帳號」").fill("刪除帳號");
  await page.getByRole("button", { name: "永久刪除我的帳號" }).click();
  await page.getByText("你的帳號與資料已經刪除").waitFor();
  for (let attempt = 0; attempt < 50 && apple.revoked.length === 0; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(apple.revoked).toEqual([{ token: expect.stringMatching(/^r/), tokenTypeHint: "refresh_token" }]);
  expect((await mailTo(apple.person.email, /帳號已刪除/, 1, site())).links.some((link) => new URL(link).pathname === "/account-deletion")).toBe(true);
  await page.context().close();
}, 60_000);

it("a parent signed in with a password links Apple on the account screen (the form post comes back to the link)", async () => {
  apple.person = { sub: "001122.e2e.0003", email: "e2e-apple-3@privaterelay.appleid.com", firstName: "大同", lastName: "陳" };
  const email = `e2e-apple-link-${Date.now()}@example.tw`;
  const signUp = await fetch(`${site()}/api/auth/sign-up/email`, { method: "POST", headers: { "content-type": "application/json", origin: site() }, body: JSON.stringify({ email, password, name: "陳爸爸" }) });
  expect(signUp.status).toBe(200);
  const page = await newPage();
  // Verified through this site's own development mailbox.
  await page.goto(`${site()}${linkTo(await mailTo(email, /驗證/, 1, site()), "/verify-email")}`);
  await page.getByText("已完成驗證").waitFor();
  await page.context().clearCookies();
  await page.goto(login("/account"));
  await signInHere(page, email, "/account");
  await page.getByRole("button", { name: "連結 Apple" }).click();
  await page.waitForURL((url) => url.pathname === "/account" && url.searchParams.get("done") === "linked");
  const linked = await page.evaluate(async () => (await (await fetch("/api/auth/sign-in-methods")).json()) as { methods: { provider: string }[] });
  expect(linked.methods.map((method) => method.provider)).toContain("apple");
  // The account keeps its own name and address; Apple's relay address only identifies the link.
  expect((await meOf(page)).user).toMatchObject({ email, displayName: "陳爸爸" });
  await page.context().close();
}, 60_000);
