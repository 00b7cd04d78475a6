import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { launchServer, type LaunchedServer } from "~tests/helpers/launch-server.mjs";
import { startReferenceApp, type ReferenceApp } from "~tests/fixtures/reference-app";
import { launchChromium, waitForHydration } from "./helpers/browser";
import { watchViolations } from "./helpers/csp";
import { newEmail, submitSignUp } from "./helpers/accounts";

/**
 * The app's sign-in end to end in Chromium, on SQLite: the site on example.test and the reference client (the
 * stand-in for the app, openid-client) on app.example.test, both mapped to loopback, with COOKIE_DOMAIN shared.
 * Signing in on the site signs the parent into the app without a second prompt (進入應用程式), the app refreshes,
 * calls storage with its access token and signs out; a browser signed in nowhere goes through the site's own
 * sign-in screen. A form's redirect off the site (to an app, or to Google when linking it) must pass the pages'
 * form-action. Ports 4210/4211 are this file's own.
 */
const sitePort = 4210;
const appPort = 4211;
const site = `http://example.test:${sitePort}`;
const appOrigin = `http://app.example.test:${appPort}`;

describe("the app signs in through the site (OpenID provider, single sign-on)", () => {
  let server: LaunchedServer;
  let app: ReferenceApp;
  let browser: Browser;

  beforeAll(async () => {
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
        // A site that is not on loopback must name a mail server; none answers here and no mail is needed.
        SMTP_HOST: "127.0.0.1",
        SMTP_PORT: "9",
        // A real provider, for the linking form whose redirect leaves the site (Google itself is never reached).
        GOOGLE_CLIENT_ID: "e2e-google-client",
        GOOGLE_CLIENT_SECRET: "e2e-google-secret",
        OIDC_CLIENTS: JSON.stringify([
          { client_id: "web-app", client_name: "任務小勇士 App", redirect_uris: [`${appOrigin}/callback`], post_logout_redirect_uris: [`${appOrigin}/signed-out`], public: true, first_party: true },
        ]),
      },
    });
    const pngBytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#3b5bdb" } }).png().toBuffer();
    app = await startReferenceApp({ issuer: site, reachAt: `http://localhost:${sitePort}`, host: "app.example.test", port: appPort, clientId: "web-app", pngBytes });
    browser = await launchChromium([`--host-resolver-rules=MAP example.test 127.0.0.1, MAP *.example.test 127.0.0.1`]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await server?.stop();
  });

  async function newPage(options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
    const context = await browser.newContext({ locale: "zh-TW", ...options });
    return context.newPage();
  }

  it("進入應用程式 lands a parent signed in on the site in the app, which refreshes, uploads and signs out", async () => {
    let page = await newPage();
    await page.goto(`${site}/signup`);
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
    await page.getByRole("button", { name: "登出應用程式" }).click();
    await page.waitForURL(`${appOrigin}/signed-out`);
    const userinfo = await fetch(`http://localhost:${sitePort}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    expect(userinfo.status).toBe(401);
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
});
