import http from "node:http";
import { describe, expect, it } from "vitest";
import { baseURL, expectNoAxeViolations, holdRequests, openPage, useBrowser } from "./helpers/browser";
import { expectStrictPolicy, watchViolations } from "./helpers/csp";
import { routeExpectations } from "./helpers/routes";

const productName = "任務小勇士";

describe.concurrent("every route", () => {
  const browser = useBrowser();

  // One visit per route checks everything a route promises, so the slowest part of the suite loads each page once.
  // Every page of the route map, each with its expectations: a page without any makes routeExpectations throw.
  it.each(routeExpectations())("$path ($route) answers with its title and heading, axe-clean, under a strict CSP without a violation", async (route) => {
    const page = await browser.newPage();
    const violations = await watchViolations(page.context());
    const response = await openPage(page, route.path);
    expect(response?.status()).toBe(route.status ?? 200);
    if (route.landsOn) expect(new URL(page.url()).pathname).toBe(route.landsOn);
    await expectStrictPolicy(response);
    expect(await page.title()).toBe(`${route.title} | ${productName}`);
    expect((await page.locator("h1").first().textContent())?.trim()).toBe(route.heading);
    expect(await page.locator("html").getAttribute("lang")).toBe("zh-Hant-TW");
    const navBars = await page.locator('nav[aria-label="主要導覽"]').count();
    const footers = await page.locator("footer").count();
    expect({ navBars, footers }).toEqual(route.layout ? { navBars: 1, footers: 1 } : { navBars: 0, footers: 0 });
    await expectNoAxeViolations(page);
    await page.waitForLoadState("networkidle");
    expect(violations).toEqual([]);
    await page.context().close();
  });
});

describe("server rules", () => {
  const redirect = (path: string) => fetch(`${baseURL()}${path}`, { redirect: "manual" });

  it("removes a trailing slash with 301 and keeps the query", async () => {
    const response = await redirect("/features/?ref=line");
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe(`${baseURL()}/features?ref=line`);
  });

  it("never turns //evil.com/ into a redirect to another host", async () => {
    const response = await redirect("//evil.com/");
    expect(response.status).toBe(301);
    const location = new URL(response.headers.get("location") ?? "", baseURL());
    expect(location.origin).toBe(baseURL());
    expect(location.pathname).toBe("/evil.com");
  });

  it("sends www.<host> to the bare host with 301, path and query kept", async () => {
    // fetch() may not set Host, so this one request goes through node:http.
    const port = new URL(baseURL()).port;
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get({ host: "127.0.0.1", port, path: "/faq?x=1", headers: { host: `www.example.tw:${port}` } }, resolve).on("error", reject),
    );
    answer.resume();
    expect(answer.statusCode).toBe(301);
    expect(answer.headers.location).toBe(`http://example.tw:${port}/faq?x=1`);
  });

  it("answers an unknown path with the not-found screen and 404", async () => {
    const response = await fetch(`${baseURL()}/does/not/exist`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("找不到頁面");
  });

  it("serves hashed assets with immutable caching and brotli", async () => {
    const html = await (await fetch(`${baseURL()}/`)).text();
    // The framework chunk: large enough to be precompressed (the entry chunk is a few hundred bytes).
    const asset = html.match(/\/assets\/framework-[^"]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const response = await fetch(`${baseURL()}${asset}`, { headers: { "accept-encoding": "br" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-encoding")).toBe("br");
  });

  it("gzips server-rendered pages and leaves them whole for clients that do not ask", async () => {
    // The page is prerendered; with a query string it is rendered per request.
    const compressed = await fetch(`${baseURL()}/account-deletion?from=mail`, { headers: { "accept-encoding": "gzip" } });
    expect(compressed.status).toBe(200);
    expect(compressed.headers.get("content-encoding")).toBe("gzip");
    expect(compressed.headers.get("vary")).toMatch(/Accept-Encoding/i);
    expect(await compressed.text()).toContain("刪除帳號");
    const plain = await fetch(`${baseURL()}/account-deletion?from=mail`, { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toContain("刪除帳號");
  });

  it("serves prerendered pages as files, compressed", async () => {
    const response = await fetch(`${baseURL()}/features`, { headers: { "accept-encoding": "gzip" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    const etag = response.headers.get("etag");
    expect(etag).toBeTruthy();
    const revalidated = await fetch(`${baseURL()}/features`, { headers: { "accept-encoding": "gzip", "if-none-match": etag! } });
    expect(revalidated.status).toBe(304);
  });
});

describe("client-side navigation", () => {
  const browser = useBrowser();

  it("moves between screens without a full reload and scrolls to the top", async () => {
    const page = await browser.newPage();
    await openPage(page, "/features");
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = "same-document";
      document.body.style.minHeight = "5000px";
      window.scrollTo(0, 1500);
    });
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await page.locator("footer").getByRole("link", { name: "常見問題" }).click();
    await page.waitForURL("**/faq");
    await expect.poll(() => page.title()).toBe(`常見問題 | ${productName}`);
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same-document");
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  it("shows 載入中… while the next screen loads, then the screen", async () => {
    const page = await browser.newPage();
    await openPage(page, "/");
    const release = await holdRequests(page, "**/assets/about-*.js");
    await page.locator('nav[aria-label="頁尾導覽"]').getByRole("link", { name: "關於我們" }).click();
    await expect.poll(() => page.locator(".navigation-status").textContent()).toBe("載入中…");
    release();
    await page.waitForURL("**/about");
    await page.getByRole("heading", { level: 1, name: "關於我們" }).waitFor();
  });

  it("explains a screen that cannot load while offline, with a reload button", async () => {
    const page = await browser.newPage();
    await openPage(page, "/");
    await page.context().setOffline(true);
    await page.locator('nav[aria-label="頁尾導覽"]').getByRole("link", { name: "服務條款" }).click();
    await page.getByRole("heading", { name: "目前沒有網路連線" }).waitFor();
    await page.context().setOffline(false);
    await page.getByRole("button", { name: "重新載入" }).click();
    await page.waitForURL("**/terms");
    await page.getByRole("heading", { level: 1, name: "服務條款" }).waitFor();
  });

  it("loads the content screens' styles again when their first load fails, and shows the screen", async () => {
    // /login has no content screen's styles; the home page, reached from its logo, needs them.
    const page = await browser.newPage();
    await openPage(page, "/login");
    const styles = /\/assets\/content-[\w-]{8}\.js$/;
    const tries: string[] = [];
    page.on("request", (request) => void (styles.test(request.url()) && tries.push(request.url())));
    await page.route(styles, (route) => route.abort("connectionreset"), { times: 1 });
    await page.getByRole("link", { name: "任務小勇士" }).click();
    await page.getByRole("heading", { level: 1, name: "讓孩子在遊戲中，養成獨立與負責的好習慣" }).waitFor();
    expect(tries).toHaveLength(2);
    expect(await page.getByRole("heading", { name: "頁面載入失敗" }).count()).toBe(0);
  });

  it("gives up on a screen whose code hangs for 120 s", async () => {
    const page = await browser.newPage();
    await page.clock.install();
    await openPage(page, "/");
    await page.route("**/assets/privacy-*.js", () => {
      // never answered: the chunk hangs
    });
    await page.locator('nav[aria-label="頁尾導覽"]').getByRole("link", { name: "隱私權政策" }).click();
    await expect.poll(() => page.locator(".navigation-status").textContent()).toBe("載入中…");
    await page.clock.runFor(119_000);
    expect(await page.getByRole("heading", { name: "頁面載入逾時" }).count()).toBe(0);
    await page.clock.runFor(2_000);
    await page.getByRole("heading", { name: "頁面載入逾時" }).waitFor();
    expect(await page.getByRole("button", { name: "重新載入" }).count()).toBe(1);
  });
});
