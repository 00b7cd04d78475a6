import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { launchServer, type LaunchedServer } from "~tests/helpers/launch-server.mjs";
import { startReferenceApp, type ReferenceApp } from "~tests/fixtures/reference-app";
import { startBackchannelReceiver, type BackchannelReceiver } from "~tests/fixtures/backchannel-receiver";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { addVirtualAuthenticator, baseURL, desktopViewport, familyHeaders, launchChromium, mobileViewport, openPage, playwrightTimeout, saveScreenshot, waitForHydration } from "./helpers/browser";
import { watchViolations } from "./helpers/csp";
import { createVerifiedAccount, newEmail, password, signInTo, submitSignUp } from "./helpers/accounts";
import { e2eApps } from "./helpers/apps";
import { linkTo, mailTo } from "./helpers/mailbox";
import { accountWithTwoStep } from "./helpers/two-step";

/**
 * The app's sign-in end to end in Chromium, on SQLite: the site on example.test and the reference client (the
 * stand-in for the app, openid-client) on app.example.test, both mapped to loopback, with COOKIE_DOMAIN shared.
 * Signing in on the site signs the parent into the app without a second prompt (進入應用程式), the app refreshes,
 * calls storage with its access token and signs out; a browser signed in nowhere goes through the site's own
 * sign-in screen. A form's redirect off the site (to an app, or to Google when linking it) must pass the pages'
 * form-action. The app's backend (a loopback receiver) verifies the logout token of each app sign-in that ends, and
 * an app that names its API gets a JWT access token `jose` verifies (decision 190). Ports 4210/4211 are this file's own. The second part runs every way in against the suite's own site,
 * where the apps of tests/e2e/helpers/apps.ts are registered.
 */
const sitePort = 4210;
const appPort = 4211;
const site = `http://example.test:${sitePort}`;
const appOrigin = `http://app.example.test:${appPort}`;
/** The app's API, which takes JWT access tokens (OIDC_RESOURCES). */
const appApi = "https://api.example.test/";
/** The acr of a two-step sign-in (decision 190). */
const twoStepAcr = "urn:taskhero:acr:mfa";

// One Chromium for the file; example.test and its subdomains are loopback for it.
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium([`--host-resolver-rules=MAP example.test 127.0.0.1, MAP *.example.test 127.0.0.1`]);
});
afterAll(async () => {
  await browser?.close();
});

describe("the app signs in through the site (OpenID provider, single sign-on)", () => {
  let server: LaunchedServer;
  let app: ReferenceApp;
  // The app's backend: told of each of its sign-ins that ends (back-channel logout, decision 190).
  let backend: BackchannelReceiver;

  beforeAll(async () => {
    backend = await startBackchannelReceiver({ issuer: () => site, audience: "web-app", reachAt: () => `http://localhost:${sitePort}` });
    server = await launchServer({
      port: sitePort,
      buildDir: process.env.BUILD_DIR || "build-test",
      env: {
        SITE_URL: site,
        APP_URL: appOrigin,
        COOKIE_DOMAIN: "example.test",
        ALLOWED_HOSTNAMES: "example.test,app.example.test,localhost",
        HOST: "127.0.0.1",
        AUTH_SECRET: "e2e-app-sign-in-secret-0123456789abcdef",
        // Not a loopback site: the bot check stays on. A page on plain http cannot solve it (no WebCrypto), so every
        // form here counts against the limit of forms without JavaScript, which this file's families all share.
        BOT_CHECK: "proof-of-work",
        RATE_LIMIT_NO_SCRIPT_PER_IP: "50/3600",
        // A site that is not on loopback must name a mail server; none answers here and no mail is needed.
        SMTP_HOST: "127.0.0.1",
        SMTP_PORT: "9",
        // A real provider, for the linking form whose redirect leaves the site (Google itself is never reached).
        GOOGLE_CLIENT_ID: "e2e-google-client",
        GOOGLE_CLIENT_SECRET: "e2e-google-secret",
        OIDC_CLIENTS: JSON.stringify([
          { client_id: "web-app", client_name: "任務小勇士 App", redirect_uris: [`${appOrigin}/callback`], post_logout_redirect_uris: [`${appOrigin}/signed-out`], public: true, first_party: true, backchannel_logout_uri: backend.uri },
          { client_id: "native-app", client_name: "任務小勇士 App", redirect_uris: ["http://127.0.0.1/callback"], public: true, first_party: true },
        ]),
        OIDC_RESOURCES: appApi,
      },
    });
    const pngBytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#3b5bdb" } }).png().toBuffer();
    app = await startReferenceApp({ issuer: site, reachAt: `http://localhost:${sitePort}`, host: "app.example.test", port: appPort, clientId: "web-app", pngBytes });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await server?.stop();
    await backend?.close();
  });

  async function newPage(options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
    const context = await browser.newContext({ locale: "zh-TW", ...options });
    context.setDefaultTimeout(playwrightTimeout());
    return context.newPage();
  }

  it("進入應用程式 lands a parent signed in on the site in the app, which refreshes, uploads and signs out", async () => {
    let page = await newPage();
    await page.goto(`${site}/signup`);
    await waitForHydration(page);
    await submitSignUp(page, newEmail());
    // The session cookie is the parent domain's, so the app's subdomain shares it.
    const cookies = await page.context().cookies(site);
    expect(cookies.find((cookie) => cookie.name.endsWith("session_token"))?.domain).toBe(".example.test");

    // A page rendered per request (prerendered ones carry the build's configuration).
    await page.goto(`${site}/current-plan`);
    const enter = page.getByRole("link", { name: "進入應用程式" });
    expect(await enter.getAttribute("href")).toBe(appOrigin);
    const [appPage] = await Promise.all([page.context().waitForEvent("page"), enter.click()]);
    const visited: string[] = [];
    appPage.on("framenavigated", (frame) => frame === appPage.mainFrame() && visited.push(frame.url()));
    await appPage.waitForURL(`${appOrigin}/`);
    page = appPage;
    expect(await page.locator("#name").textContent()).toBe("小明");
    const signedIn = app.tokens()!.claims()!;
    // No second prompt: the browser went app → authorization → app, never through a sign-in screen.
    expect(visited.some((url) => url.includes("/login"))).toBe(false);

    await page.getByRole("link", { name: "更新權杖" }).click();
    expect(await page.locator("#rotated").textContent()).toBe("true");
    await page.getByRole("link", { name: "回到 App" }).click();
    await page.getByRole("link", { name: "上傳檔案" }).click();
    expect(await page.locator("#status").textContent()).toBe("200");
    const download = `/v0/b/default/o/${encodeURIComponent((await page.locator("#path").textContent())!)}?alt=media`;

    // The app's page may use what the app needs from the site (userinfo, downloads) and nothing more.
    const accessToken = app.tokens()!.access_token;
    const fromApp = await page.evaluate(
      async ({ siteOrigin, token, path }) => {
        const userinfo = await fetch(`${siteOrigin}/oidc/me`, { headers: { authorization: `Bearer ${token}` } }).then((answer) => answer.status, () => "blocked");
        const photo = await fetch(`${siteOrigin}${path}`, { headers: { authorization: `Bearer ${token}` } }).then((answer) => answer.status, () => "blocked");
        const session = await fetch(`${siteOrigin}/api/auth/get-session`, { credentials: "include" }).then((answer) => answer.status, () => "blocked");
        return { userinfo, photo, session };
      },
      { siteOrigin: site, token: accessToken, path: download },
    );
    expect(fromApp).toEqual({ userinfo: 200, photo: 200, session: "blocked" });
    // The app's pages may embed the download (same site); the site's pages stay same-origin.
    const served = await fetch(`http://localhost:${sitePort}${download}`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(served.headers.get("cross-origin-resource-policy")).toBe("same-site");
    expect((await fetch(`http://localhost:${sitePort}/login`)).headers.get("cross-origin-resource-policy")).toBe("same-origin");

    await page.getByRole("link", { name: "回到 App" }).click();
    await page.getByRole("link", { name: "登出" }).click();
    await page.getByRole("heading", { name: "登出應用程式" }).waitFor();
    // The page names the app and has a way back without signing out.
    await page.getByText("確定要登出「任務小勇士 App」嗎？").waitFor();
    expect(await page.getByRole("link", { name: "取消" }).getAttribute("href")).toBe(appOrigin);
    await saveScreenshot(page, "app-end-session-1280");
    await page.getByRole("button", { name: "登出應用程式" }).click();
    await page.waitForURL(`${appOrigin}/signed-out`);
    const userinfo = await fetch(`http://localhost:${sitePort}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(userinfo.status).toBe(401);
    // The app's backend heard it: a logout token for this sign-in, verified against the site's keys.
    expect(await backend.waitFor((token) => token.sid === signedIn.sid)).toMatchObject({ iss: site, aud: "web-app", sub: signedIn.sub });
    const { started: _started, ...timings } = app.timings;
    console.info(`reference client timings (ms): ${JSON.stringify(timings)}`);
  }, 60_000);

  // Without JavaScript is also what a slow phone does when it is tapped before its scripts arrive: the form posts,
  // and the browser follows the redirects through /oidc/* to the app, which the page's form-action must allow.
  it.each([
    { label: "with JavaScript", javaScriptEnabled: true },
    { label: "without JavaScript (a form post)", javaScriptEnabled: false },
  ])("a browser signed in nowhere goes through the site's own sign-in screen (as a guest here) and back to the app, $label", async ({ javaScriptEnabled }) => {
    const page = await newPage({ javaScriptEnabled });
    const violations = javaScriptEnabled ? await watchViolations(page.context()) : [];
    await page.goto(`${appOrigin}/`);
    await page.waitForURL((url) => url.pathname === "/login" && (url.searchParams.get("redirectTo") ?? "").startsWith("/oidc/interaction/"));
    if (javaScriptEnabled) await waitForHydration(page);
    await page.getByRole("button", { name: "以訪客身分試用" }).click();
    await page.waitForURL(`${appOrigin}/`);
    expect(await page.locator("#anonymous").textContent()).toBe("true");
    // The app signs out (its one signed-in slot is free again), through the provider's plain-form confirmation.
    await page.getByRole("link", { name: "登出" }).click();
    await page.getByRole("button", { name: "登出應用程式" }).click();
    await page.waitForURL(`${appOrigin}/signed-out`);
    expect(violations).toEqual([]);
  }, 60_000);

  it("a form that links Google sends the browser on to Google's sign-in (the pages' form-action allows it)", async () => {
    const page = await newPage({ javaScriptEnabled: false });
    await page.goto(`${site}/signup`);
    await submitSignUp(page, newEmail(), "小華");
    await page.goto(`${site}/account`);
    // A redirect the policy refuses is never requested; Google itself is not reached from here (no network).
    const toGoogle = page.waitForRequest((request) => request.url().startsWith("https://accounts.google.com/"), { timeout: 15_000 });
    await page.getByRole("button", { name: "連結 Google" }).click();
    const authorization = new URL((await toGoogle).url());
    expect(authorization.pathname).toBe("/o/oauth2/v2/auth");
    expect(authorization.searchParams.get("client_id")).toBe("e2e-google-client");
    expect(authorization.searchParams.get("redirect_uri")).toBe(`${site}/api/auth/callback/google`);
  }, 60_000);

  it("an app that names its API gets a JWT access token its API verifies with jose, refused for another audience", async () => {
    const page = await newPage();
    await page.goto(`${site}/signup`);
    await waitForHydration(page);
    await submitSignUp(page, newEmail(), "小安");
    const native = await startReferenceApp({ issuer: site, reachAt: `http://localhost:${sitePort}`, host: "127.0.0.1", port: 0, clientId: "native-app", pngBytes: Buffer.alloc(0), resource: appApi });
    try {
      await page.goto(`${native.origin}/`);
      await page.waitForURL(`${native.origin}/`);
      const tokens = native.tokens()!;
      const keys = createRemoteJWKSet(new URL(`http://localhost:${sitePort}/oidc/jwks`));
      const { payload } = await jwtVerify(tokens.access_token, keys, { issuer: site, audience: appApi, typ: "at+jwt" });
      expect(payload).toMatchObject({ sub: tokens.claims()!.sub, client_id: "native-app", sid: tokens.claims()!.sid });
      await expect(jwtVerify(tokens.access_token, keys, { issuer: site, audience: "https://other-api.example.test/" })).rejects.toMatchObject({ claim: "aud" });
    } finally {
      await native.close();
    }
  }, 60_000);

  it("登出其他所有裝置 on 帳號安全 ends the app's sign-in, and the app's backend hears it", async () => {
    const page = await newPage();
    await page.goto(`${site}/signup`);
    await waitForHydration(page);
    await submitSignUp(page, newEmail(), "小芳");
    await page.goto(`${appOrigin}/`);
    await page.waitForURL(`${appOrigin}/`);
    const signedIn = app.tokens()!.claims()!;
    await page.goto(`${site}/account/security`);
    await waitForHydration(page);
    await page.getByRole("button", { name: "登出其他所有裝置" }).click();
    expect(await backend.waitFor((token) => token.sid === signedIn.sid)).toMatchObject({ iss: site, aud: "web-app", sub: signedIn.sub });
    const refreshed = await fetch(`http://localhost:${sitePort}/oidc/me`, { headers: { authorization: `Bearer ${app.tokens()!.access_token}` } });
    expect(refreshed.status).toBe(401);
  }, 60_000);
});

describe("every way in comes back to the app's callback (the suite's site, apps on 127.0.0.1)", () => {
  const apps: ReferenceApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  /** A fresh app (each holds one sign-in in memory), registered as `client` (tests/e2e/helpers/apps.ts). */
  async function openApp(client: keyof typeof e2eApps, acrValues?: string) {
    const app = await startReferenceApp({ issuer: baseURL(), reachAt: baseURL(), host: "127.0.0.1", port: 0, clientId: e2eApps[client].client_id, thirdParty: !e2eApps[client].first_party, pngBytes: Buffer.alloc(0), acrValues });
    apps.push(app);
    return app;
  }

  async function newFamilyPage(options: BrowserContextOptions = {}) {
    const context = await browser.newContext({ baseURL: baseURL(), locale: "zh-TW", extraHTTPHeaders: familyHeaders(), ...options });
    context.setDefaultTimeout(playwrightTimeout());
    const page = await context.newPage();
    page.on("pageerror", (error) => console.error(`[page error] ${error.message}`));
    return page;
  }

  /**
   * Opens the app signed in nowhere: it sends the browser to the site's sign-in screen on its way back to the
   * interaction. Returns every address the browser was sent to from then on (redirects included).
   */
  async function startAtApp(page: Page, app: ReferenceApp, javaScriptEnabled = true) {
    const requested: string[] = [];
    page.on("request", (request) => request.isNavigationRequest() && request.frame() === page.mainFrame() && requested.push(request.url()));
    await page.goto(`${app.origin}/`);
    await page.waitForURL((url) => url.pathname === "/login" && (url.searchParams.get("redirectTo") ?? "").startsWith("/oidc/interaction/"));
    if (javaScriptEnabled) await waitForHydration(page);
    return requested;
  }

  /** The browser came back through the app's callback with a code, and the app knows who signed in. */
  async function expectBackInApp(page: Page, app: ReferenceApp, requested: string[], name?: string) {
    await page.waitForURL(`${app.origin}/`);
    expect(requested.some((url) => url.startsWith(`${app.origin}/callback?code=`))).toBe(true);
    if (name) expect(await page.locator("#name").textContent()).toBe(name);
    else expect(await page.locator("#sub").textContent()).not.toBe("");
  }

  async function typePassword(page: Page, email: string) {
    await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await page.getByLabel("密碼").fill(password);
    await page.getByRole("button", { name: "登入", exact: true }).click();
  }

  async function enterBackupCode(page: Page, code: string) {
    await page.waitForURL((url) => url.pathname === "/login/two-step" && (url.searchParams.get("redirectTo") ?? "").startsWith("/oidc/interaction/"));
    await page.getByText("手機不在身邊？改用備用碼").click();
    await page.getByLabel("備用碼").fill(code);
    await page.getByRole("button", { name: "使用備用碼登入" }).click();
  }

  /** Asks for an email link on the app's sign-in, and opens the mailed link in the same browser. */
  async function signInByEmailLink(page: Page, email: string, mailsBefore: number) {
    await page.getByRole("link", { name: "用電子郵件連結登入" }).click();
    await page.waitForURL((url) => url.pathname === "/login/email-link");
    await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await page.getByRole("button", { name: "寄送登入連結" }).click();
    await page.getByRole("status").filter({ hasText: "登入連結已經寄出" }).waitFor();
    const link = linkTo(await mailTo(email, /登入連結/, mailsBefore + 1), "/login/email-link");
    expect(new URL(link, baseURL()).searchParams.get("redirectTo")).toMatch(/^\/oidc\/interaction\//);
    await page.goto(link);
    await page.getByRole("button", { name: "登入" }).click();
  }

  it("with two-step sign-in: password and the app's code (with JavaScript), a backup code (without), an email link and a backup code (both)", async () => {
    const { email, nextCode, backupCodes } = await accountWithTwoStep(await newFamilyPage(), "林爸爸");

    // Password, then the authenticator's code, with JavaScript: the code's form post must end in the app, not on
    // a 400 page (its redirect to /oidc/interaction/… is a whole page load).
    let page = await newFamilyPage();
    let app = await openApp("family");
    let requested = await startAtApp(page, app);
    await typePassword(page, email);
    await page.waitForURL((url) => url.pathname === "/login/two-step");
    await page.getByLabel("驗證碼").fill(await nextCode());
    await page.getByRole("button", { name: "驗證並登入" }).click();
    await expectBackInApp(page, app, requested, "林爸爸");
    // The ID token says how: a code after the password, two steps.
    expect(app.tokens()!.claims()).toMatchObject({ amr: ["otp", "mfa"], acr: twoStepAcr });
    await page.context().close();

    // Without JavaScript: password, then a backup code.
    page = await newFamilyPage({ javaScriptEnabled: false });
    app = await openApp("family");
    requested = await startAtApp(page, app, false);
    await typePassword(page, email);
    await enterBackupCode(page, backupCodes[0]!);
    await expectBackInApp(page, app, requested, "林爸爸");
    await page.context().close();

    // An email link asked for from the app's sign-in leads back to it, through the code page, with and without JavaScript.
    for (const [index, javaScriptEnabled] of [true, false].entries()) {
      page = await newFamilyPage({ javaScriptEnabled });
      app = await openApp("family");
      requested = await startAtApp(page, app, javaScriptEnabled);
      await signInByEmailLink(page, email, index);
      await enterBackupCode(page, backupCodes[index + 1]!);
      await expectBackInApp(page, app, requested, "林爸爸");
      await page.context().close();
    }
  }, 120_000);

  it("an email link without two-step sign-in, a passkey, and the development provider's pop-up (a social account)", async () => {
    // A passkey made on the account center (Chromium's virtual authenticator), then the site signed out.
    let page = await newFamilyPage();
    await addVirtualAuthenticator(page);
    // The button rather than the email field's suggestions, which would sign in as soon as /login opens.
    await page.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
    });
    const email = await createVerifiedAccount(newEmail(), "王媽媽");
    await signInTo(page, email, "/account/passkeys");
    await openPage(page, "/account/passkeys");
    await page.getByRole("button", { name: "新增密碼金鑰" }).click();
    await page.getByRole("status").filter({ hasText: "已新增密碼金鑰" }).waitFor();
    await openPage(page, "/login");
    await page.getByRole("button", { name: "登出" }).click();
    await page.getByRole("button", { name: "登入", exact: true }).waitFor();

    let app = await openApp("family");
    let requested = await startAtApp(page, app);
    await page.getByRole("button", { name: "使用密碼金鑰登入" }).click();
    await expectBackInApp(page, app, requested, "王媽媽");
    // A passkey bound to its authenticator (the virtual one is not synced), unlocked by the user: two factors.
    expect(app.tokens()!.claims()).toMatchObject({ amr: ["hwk", "user", "mfa"], acr: twoStepAcr });

    // Signed in on the site by password alone, an app that asks for two steps gets them: the passkey, asked for
    // on the two-step page (no password field there), then back in the app.
    await openPage(page, "/login");
    await page.getByRole("button", { name: "登出" }).click();
    await typePassword(page, email);
    await page.waitForURL((url) => url.pathname !== "/login");
    const asking = await openApp("family", twoStepAcr);
    requested = [];
    page.on("request", (request) => request.isNavigationRequest() && request.frame() === page.mainFrame() && requested.push(request.url()));
    await page.goto(`${asking.origin}/`);
    await page.waitForURL((url) => url.pathname === "/account/confirm-identity" && url.searchParams.get("proof") === "two-step");
    await page.getByRole("heading", { name: "兩步驟驗證" }).waitFor();
    expect(await page.getByLabel("密碼", { exact: true }).count()).toBe(0);
    await waitForHydration(page);
    await page.getByRole("button", { name: /密碼金鑰/ }).click();
    await expectBackInApp(page, asking, requested, "王媽媽");
    expect(asking.tokens()!.claims()).toMatchObject({ amr: ["hwk", "user", "mfa"], acr: twoStepAcr });
    await page.context().close();

    // An email link, in a browser that has never signed in.
    page = await newFamilyPage({ javaScriptEnabled: false });
    app = await openApp("family");
    requested = await startAtApp(page, app, false);
    await signInByEmailLink(page, email, 0);
    await expectBackInApp(page, app, requested, "王媽媽");
    // An email link has no registered amr value: one step.
    expect(app.tokens()!.claims()).toMatchObject({ acr: "urn:taskhero:acr:basic" });
    expect(app.tokens()!.claims()!.amr).toBeUndefined();
    await page.context().close();

    // A social account (the development provider stands in for Google, LINE and Facebook).
    page = await newFamilyPage();
    app = await openApp("family");
    requested = await startAtApp(page, app);
    const popupOpened = page.waitForEvent("popup");
    await page.getByRole("button", { name: "使用開發測試帳號登入" }).click();
    const popup = await popupOpened;
    await popup.getByRole("textbox", { name: "電子郵件" }).fill(newEmail());
    await popup.getByRole("button", { name: "繼續" }).click();
    await expectBackInApp(page, app, requested);
    await page.context().close();
  }, 90_000);

  it("a third-party app asks first; 帳號安全 names each app sign-in by its app, at 375 and 1280 px", async () => {
    const page = await newFamilyPage({ viewport: desktopViewport });
    const email = await createVerifiedAccount(newEmail(), "陳爸爸");
    const partner = await openApp("partner");
    let requested = await startAtApp(page, partner);
    await typePassword(page, email);
    await page.getByRole("heading", { name: "授權應用程式" }).waitFor();
    await page.getByRole("button", { name: "允許" }).click();
    await expectBackInApp(page, partner, requested, "陳爸爸");
    expect(partner.tokens()!.claims()).toMatchObject({ amr: ["pwd"], acr: "urn:taskhero:acr:basic" });

    // Signed in on the site already: the first-party app goes straight through.
    const family = await openApp("family");
    requested = [];
    page.on("request", (request) => request.isNavigationRequest() && requested.push(request.url()));
    await page.goto(`${family.origin}/`);
    await expectBackInApp(page, family, requested, "陳爸爸");

    for (const [width, viewport] of [["1280", desktopViewport], ["375", mobileViewport]] as const) {
      await page.setViewportSize(viewport);
      await openPage(page, "/account/security");
      const names = await page.locator(".device__name").allTextContents();
      expect(names.some((name) => name.startsWith("親子行事曆（App）"))).toBe(true);
      expect(names.some((name) => name.startsWith("任務小勇士 App"))).toBe(true);
      expect(names.some((name) => name.includes("App（App）"))).toBe(false);
      // The one unknown device is the test's own HTTP client, which signed the account up.
      expect(names.filter((name) => name.includes("不明的裝置"))).toHaveLength(1);
      await page.locator(".device__name", { hasText: "親子行事曆（App）" }).scrollIntoViewIfNeeded();
      await saveScreenshot(page, `app-sign-ins-on-account-security-${width}`);
    }
    await page.context().close();
  }, 60_000);
});
