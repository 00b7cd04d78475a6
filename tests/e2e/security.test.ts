import { describe, expect, it } from "vitest";
import { newEmail, signUp } from "./helpers/accounts";
import { baseURL, familyHeaders, openPage, useBrowser } from "./helpers/browser";
import { watchViolations } from "./helpers/csp";
import { fixedAddress, routeMap } from "~/lib/route-map";
import { linkTo, mailTo } from "./helpers/mailbox";

describe("Content-Security-Policy", () => {
  const browser = useBrowser();

  it("has no violation while navigating between screens in the browser", async () => {
    const page = await browser.newPage();
    const violations = await watchViolations(page.context());
    await openPage(page, "/");
    for (const name of ["功能介紹", "學習資源", "免費方案"]) {
      await page.getByRole("navigation", { name: "主要導覽" }).getByRole("link", { name, exact: true }).first().click();
      await page.waitForLoadState("networkidle");
    }
    expect(violations).toEqual([]);
    await page.context().close();
  });

  it("has no violation in the dialogs, the social pop-up, sign-up, verification and the forms", async () => {
    const page = await browser.newPage();
    const violations = await watchViolations(page.context());
    await openPage(page, "/");
    for (const name of ["分享網站", "追蹤我們", "家長夥伴互助", "合作提案"]) {
      await page.locator("footer").getByRole("button", { name, exact: true }).click();
      await page.getByRole("dialog", { name }).waitFor();
      await page.keyboard.press("Escape");
    }

    await openPage(page, "/login?redirectTo=%2Fpricing");
    const popupOpened = page.waitForEvent("popup");
    await page.getByRole("button", { name: "使用開發測試帳號登入" }).click();
    const popup = await popupOpened;
    await popup.getByRole("textbox", { name: "電子郵件" }).fill(newEmail());
    await popup.getByRole("button", { name: "繼續" }).click();
    await page.waitForURL("**/pricing");

    const email = newEmail();
    const other = await page.context().browser()!.newContext({ baseURL: baseURL(), extraHTTPHeaders: familyHeaders() });
    const otherViolations = await watchViolations(other);
    const signUpPage = await other.newPage();
    await signUp(signUpPage, email);
    await openPage(signUpPage, linkTo(await mailTo(email, /驗證/), "/verify-email"));
    await signUpPage.getByText("已完成驗證").waitFor();
    await openPage(signUpPage, "/account-deletion");
    await other.close();
    expect([...violations, ...otherViolations]).toEqual([]);
    await page.context().close();
  });

  it("has no violation on a signed-in parent's pages kept with their scripts' hashes, which hydrate", async () => {
    const page = await browser.newPage();
    const violations = await watchViolations(page.context());
    await signUp(page, newEmail());
    // The second load of each is the parent's kept page, whose policy names its scripts by hash (decision 714).
    for (const path of ["/", "/", "/features", "/features", "/wishing-well", "/wishing-well"]) {
      const response = await openPage(page, path);
      expect(response?.headers()["content-security-policy"], path).toMatch(/script-src ('sha256-[^']+' )+'strict-dynamic'/);
      await expect(page.locator("details.user-menu").count()).resolves.toBe(1);
    }
    expect(violations).toEqual([]);
    await page.context().close();
  });

  it.each([{ who: "a visitor" }, { who: "a signed-in parent" }])(
    "has no violation when $who goes from a page of hashes to screens that hoist their own styles",
    async ({ who }) => {
      const page = await browser.newPage();
      const violations = await watchViolations(page.context());
      if (who !== "a visitor") await signUp(page, newEmail());
      // Each from `/` (prerendered, or the parent's kept page: a policy of hashes), in the browser: the screen's
      // <style> (the wishing well's, the dev blog's, the content screens') is added to that page.
      for (const path of ["/wishing-well", "/dev-blog", "/faq"]) {
        await openPage(page, "/");
        await page.evaluate((to) => (window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }).__reactRouterDataRouter.navigate(to), path);
        await page.waitForURL(`**${path}`);
        await page.locator(`style[data-href~="${path === "/faq" ? "content-styles" : path === "/dev-blog" ? "dev-blog-styles" : "wish-styles"}"]`).waitFor({ state: "attached" });
      }
      expect(violations).toEqual([]);
      await page.context().close();
    },
  );

  it("sends the same headers on error and not-found answers, and CORP everywhere", async () => {
    for (const path of ["/no-such-page", "/", "/login", "/api/auth/me", "/favicon.svg"]) {
      const response = await fetch(`${baseURL()}${path}`);
      expect(response.headers.get("cross-origin-resource-policy"), path).toBe("same-origin");
      expect(response.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });

  it("logs violation reports, refuses oversized ones, and limits how many one address sends", async () => {
    const report = { "csp-report": { "document-uri": `${baseURL()}/faq?token=secret`, "effective-directive": "script-src-elem", "blocked-uri": "inline" } };
    const post = (body: string) =>
      fetch(`${baseURL()}/api/csp-report`, { method: "POST", headers: { "content-type": "application/csp-report" }, body });
    expect((await post(JSON.stringify(report))).status).toBe(204);
    expect((await post("x".repeat(9000))).status).toBe(413);
    expect((await post("{not json")).status).toBe(400);
    const statuses = [];
    for (let index = 0; index < 31; index += 1) statuses.push((await post(JSON.stringify(report))).status);
    expect(statuses).toContain(429);
  });
});

describe("HTTP methods", () => {
  it("answers TRACE with 405 and a method it does not know with 501", async () => {
    const { request } = await import("node:http");
    const send = (method: string) =>
      new Promise<number>((resolve, reject) => {
        const url = new URL(baseURL());
        request({ host: "127.0.0.1", port: url.port, path: "/", method }, (answer) => {
          answer.resume();
          resolve(answer.statusCode ?? 0);
        })
          .on("error", reject)
          .end();
      });
    expect(await send("TRACE")).toBe(405);
    expect(await send("PROPFIND")).toBe(501);
  });

  it("answers a POST to a page without an action with a plain 405, and a POST to a sign-in screen reaches its action", async () => {
    const about = await fetch(`${baseURL()}/about`, { method: "POST", body: new URLSearchParams({ a: "1" }) });
    expect(about.status).toBe(405);
    expect(about.headers.get("allow")).toBe("GET, HEAD");
    const text = await about.text();
    expect(text).not.toMatch(/action|React Router|<html/i);
    // Every resource route answers a method it does not take in words, never React Router's "Unexpected Server Error".
    const resources = routeMap.filter((entry) => entry.kind === "resource").flatMap((entry) => fixedAddress(entry) ?? []);
    expect(resources).toContain("/sitemap.xml");
    for (const path of resources) {
      const answer = await fetch(`${baseURL()}${path}`, { method: "POST", headers: { origin: baseURL() } });
      const body = await answer.text();
      expect(answer.status, path).toBeLessThan(500);
      expect(body, path).not.toMatch(/Unexpected Server Error|React Router/);
      if (answer.status === 405 && !answer.headers.get("content-type")?.includes("json")) expect([answer.headers.get("allow"), body], path).toEqual(["GET, HEAD", "這個頁面不接受這個請求方法。"]);
    }
    const login = await fetch(`${baseURL()}/login`, { method: "POST", headers: { origin: baseURL() }, body: new URLSearchParams({ email: "x" }) });
    expect(login.status).toBe(400);
    expect(await login.text()).toContain("電子郵件格式不正確");
  });
});
