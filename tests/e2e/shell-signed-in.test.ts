import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newEmail, password, signUp, storedUser } from "./helpers/accounts";
import { baseURL, expectNoAxeViolations, holdRequests, openPage, shellViewports, useBrowser, waitForHydration } from "./helpers/browser";

const appUrl = "https://app.example.tw"; // the embedded default APP_URL

const userArea = (page: Page) => page.locator("header .user-area");
const menuToggle = (page: Page) => page.getByRole("button", { name: "選單" });

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
    await signUp(page, newEmail(), "小明");
    await openPage(page, "/");
    await showUserArea(page);
    return page;
  }

  it("shows 載入中... until the session arrives, then the icon and display name of a signed-up user", async () => {
    const page = await browser.newPage({ viewport });
    await signUp(page, newEmail(), "小明");
    const release = await holdRequests(page, "**/api/auth/me");
    await openPage(page, "/");
    await showUserArea(page);
    const loading = userArea(page).getByText("載入中...", { exact: true });
    expect(await loading.isVisible()).toBe(true);
    expect(await userArea(page).getByRole("link").count()).toBe(0);
    release();

    const toggle = userArea(page).getByRole("button", { name: "小明", exact: true });
    await toggle.waitFor();
    expect(await loading.count()).toBe(0);
    expect(await toggle.locator("svg[aria-hidden=true]").count()).toBe(1);
    expect(await toggle.locator("img").count()).toBe(0);
    await page.context().close();
  });

  it("shows 訪客 for a guest", async () => {
    const page = await browser.newPage({ viewport });
    await openPage(page, "/login");
    await page.getByRole("button", { name: "以訪客身分試用" }).click();
    await page.waitForURL(`${baseURL()}/`);
    await showUserArea(page);
    await userArea(page).getByRole("button", { name: "訪客", exact: true }).waitFor();
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
    await userArea(page).getByRole("button", { name: email.split("@")[0], exact: true }).waitFor();
    expect(await storedUser(page)).toMatchObject({ email, displayName: null });
    await page.context().close();
  });

  it("opens the dropdown as a disclosure, closes it on a click outside and on Escape, and is axe-clean open", async () => {
    const page = await signedUpOnHome();
    // Found also while a click outside has closed the small-screen menu panel around it.
    const toggle = userArea(page).getByRole("button", { name: "小明", exact: true, includeHidden: true });
    const list = page.locator(`[id="${await toggle.getAttribute("aria-controls")}"]`);
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await list.isVisible()).toBe(false);

    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    expect(await list.getByRole("link", { name: "目前方案" }).getAttribute("href")).toBe("/current-plan");
    expect(await list.getByRole("link", { name: "進入應用程式" }).getAttribute("href")).toBe(appUrl);
    expect(await list.getByRole("button", { name: "登出" }).isVisible()).toBe(true);
    await expectNoAxeViolations(page);
    await toggle.click();
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");

    await toggle.click();
    // A press on plain text outside the bar (the footer's copyright line).
    await page.locator(".site-footer__copyright").click();
    expect(new URL(page.url()).pathname).toBe("/"); // closed by the press, not by a route change
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await list.isVisible()).toBe(false);

    await showUserArea(page);
    await toggle.click();
    await page.keyboard.press("Escape");
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await list.isVisible()).toBe(false);
    expect(await toggle.evaluate((element) => element === document.activeElement)).toBe(true);
    // On a small screen the menu panel stays open until a second Escape, which closes it too.
    if (isMobile) {
      expect(await menuToggle(page).getAttribute("aria-expanded")).toBe("true");
      await page.keyboard.press("Escape");
      expect(await menuToggle(page).getAttribute("aria-expanded")).toBe("false");
      expect(await menuToggle(page).evaluate((element) => element === document.activeElement)).toBe(true);
    }
    await page.context().close();
  });

  it("signs out with 登出: the logged-out links return, localStorage.user is gone, a reload stays signed out", async () => {
    const page = await signedUpOnHome();
    await userArea(page).getByRole("button", { name: "小明", exact: true }).click();
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
