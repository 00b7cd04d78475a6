import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newEmail, password, signUpByApi, storedUser } from "./helpers/accounts";
import { baseURL, expectNoAxeViolations, holdRequests, openPage, shellViewports, useBrowser, waitForHydration } from "./helpers/browser";


const userArea = (page: Page) => page.locator("header .user-area");
// The menu and the user dropdown are <details>: the toggle is the <summary>, "expanded" is the details' `open`.
const menuToggle = (page: Page) => page.locator("summary.site-header__toggle");
const expanded = (toggle: Locator) => toggle.evaluate((summary) => String((summary.parentElement as HTMLDetailsElement).open));

describe.each(shellViewports)("user area signed in at %s", (_label, viewport) => {
  const browser = useBrowser();
  const isMobile = viewport.width < 500;

  /** On a small screen the user area sits in the menu panel, which the user opens first. */
  async function showUserArea(page: Page) {
    if (isMobile) await menuToggle(page).click();
  }

  /** A browser signed up as 小明 (signed in, unverified), on / with the user area in view. */
  async function signedUpOnHome() {
    const page = await browser.newPage({ viewport });
    const email = newEmail();
    await signUpByApi(page, email, "小明");
    await openPage(page, "/");
    // The browser's copy of the session, which signing out must remove.
    await expect.poll(() => storedUser(page)).toMatchObject({ email });
    await showUserArea(page);
    return page;
  }

  it("names a signed-in visitor on a once-prerendered page before the session check answers, then shows the icon and display name", async () => {
    const page = await browser.newPage({ viewport });
    await signUpByApi(page, newEmail(), "小明");
    // A session cookie skips the prerendered copy (issue 32 item 11): the server's HTML already knows the visitor,
    // so 登入 and 註冊 never show, not even while the browser's own session check is held back.
    const release = await holdRequests(page, "**/api/auth/me");
    await openPage(page, "/");
    await showUserArea(page);
    expect(await userArea(page).getByRole("link", { name: "登入" }).count()).toBe(0);
    expect(await userArea(page).getByRole("link", { name: "註冊" }).count()).toBe(0);
    expect(await userArea(page).locator("summary", { hasText: "小明" }).count()).toBe(1);
    release();

    const toggle = userArea(page).locator("summary", { hasText: "小明" });
    await toggle.waitFor();
    expect(await userArea(page).getByRole("link", { name: "登入" }).count()).toBe(0);
    expect(await toggle.locator("svg[aria-hidden=true]").count()).toBe(1);
    expect(await toggle.locator("img").count()).toBe(0);
    await page.context().close();
  });

  it("names the signed-in user in the server's HTML of a server-rendered page, and keeps that page private", async () => {
    const page = await browser.newPage({ viewport });
    await signUpByApi(page, newEmail(), "小明");
    const answer = await page.request.get("/wishing-well");
    expect(await answer.text()).toContain('<span class="user-menu__name">小明</span>');
    expect(answer.headers()["cache-control"]).toContain("private");
    await page.context().close();
  });

  it("shows 訪客 for a guest", async () => {
    const page = await browser.newPage({ viewport });
    await openPage(page, "/login");
    await page.getByRole("button", { name: "以訪客身分試用" }).click();
    await page.waitForURL(`${baseURL()}/`);
    await showUserArea(page);
    await userArea(page).locator("summary", { hasText: "訪客" }).waitFor();
    await page.context().close();
  });

  it("falls back to the email's name part for an account created without a display name", async () => {
    const page = await browser.newPage({ viewport });
    const email = newEmail();
    await openPage(page, "/");
    // The sign-up screen requires a name, the sign-up API does not: another client may leave it empty.
    const status = await page.evaluate(
      async ({ email, password }) =>
        (
          await fetch("/api/auth/sign-up/email", {
            method: "POST",
            credentials: "include",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email, password, name: "" }),
          })
        ).status,
      { email, password },
    );
    expect(status).toBe(200);
    await openPage(page, "/");
    await showUserArea(page);
    await userArea(page).locator("summary", { hasText: email.split("@")[0] }).waitFor();
    // The server's HTML names the account before the scripts run; the browser's copy follows the session check.
    await expect.poll(() => storedUser(page)).toMatchObject({ email, displayName: null });
    await page.context().close();
  });

  it("opens the dropdown as a disclosure, closes it on a click outside and on Escape, and is axe-clean open", async () => {
    const page = await signedUpOnHome();
    // Found also while a click outside has closed the small-screen menu panel around it.
    const toggle = userArea(page).locator("summary", { hasText: "小明" });
    const list = userArea(page).locator(".user-menu__list");
    expect(await expanded(toggle)).toBe("false");
    expect(await list.isVisible()).toBe(false);

    await toggle.click();
    expect(await expanded(toggle)).toBe("true");
    expect(await list.getByRole("link", { name: "目前方案" }).getAttribute("href")).toBe("/current-plan");
    // No APP_URL is configured here: no link to an app, never a placeholder address.
    expect(await list.getByRole("link", { name: "進入應用程式" }).count()).toBe(0);
    expect(await list.getByRole("button", { name: "登出" }).isVisible()).toBe(true);
    await expectNoAxeViolations(page);
    await toggle.click();
    expect(await expanded(toggle)).toBe("false");

    await toggle.click();
    // A press on plain text outside the bar (the footer's copyright line).
    await page.locator(".site-footer__copyright").click();
    expect(new URL(page.url()).pathname).toBe("/"); // closed by the press, not by a route change
    expect(await expanded(toggle)).toBe("false");
    expect(await list.isVisible()).toBe(false);

    await showUserArea(page);
    await toggle.click();
    await page.keyboard.press("Escape");
    expect(await expanded(toggle)).toBe("false");
    expect(await list.isVisible()).toBe(false);
    expect(await toggle.evaluate((element) => element === document.activeElement)).toBe(true);
    // On a small screen the menu panel stays open until a second Escape, which closes it too.
    if (isMobile) {
      expect(await expanded(menuToggle(page))).toBe("true");
      await page.keyboard.press("Escape");
      expect(await expanded(menuToggle(page))).toBe("false");
      expect(await menuToggle(page).evaluate((element) => element === document.activeElement)).toBe(true);
    }
    await page.context().close();
  });

  it("signs out with 登出: the logged-out links return, localStorage.user is gone, a reload stays signed out", async () => {
    const page = await signedUpOnHome();
    await userArea(page).locator("summary", { hasText: "小明" }).click();
    await userArea(page).getByRole("button", { name: "登出" }).click();
    await userArea(page).getByRole("link", { name: "登入" }).waitFor();
    expect(await userArea(page).getByRole("link").allTextContents()).toEqual(["立即開始", "登入", "註冊"]);
    expect(await storedUser(page)).toBeNull();

    const sessionAnswer = page.waitForResponse((response) => response.url().endsWith("/api/auth/me"));
    await page.reload();
    await waitForHydration(page);
    await sessionAnswer;
    await showUserArea(page);
    await userArea(page).getByRole("link", { name: "登入" }).waitFor();
    expect(await userArea(page).getByRole("link").allTextContents()).toEqual(["立即開始", "登入", "註冊"]);
    expect(await storedUser(page)).toBeNull();
    await page.context().close();
  });
});
