import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { fixedAddress, routeMap } from "~/lib/route-map";
import { createVerifiedAccount, signInByApi } from "./helpers/accounts";
import { addVirtualAuthenticator, desktopViewport, openPage, useBrowser } from "./helpers/browser";

declare global {
  interface Window {
    layoutShifts: string[];
  }
}

/**
 * Records what the browser reports as moved on each page of this context, from the first paint on: each layout
 * shift with the elements that moved. A user's own input does not count (`hadRecentInput`).
 */
async function watchLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    window.layoutShifts = [];
    new PerformanceObserver((list) => {
      type Moved = { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
      const place = (rect: DOMRectReadOnly) => `${Math.round(rect.x)},${Math.round(rect.y)} ${Math.round(rect.width)}×${Math.round(rect.height)}`;
      for (const entry of list.getEntries() as unknown as { hadRecentInput: boolean; value: number; sources: Moved[] }[]) {
        if (entry.hadRecentInput) continue;
        const moved = entry.sources.map(
          (source) =>
            `${source.node instanceof Element ? source.node.outerHTML.slice(0, 80) : String(source.node?.nodeName)} from ${place(source.previousRect)} to ${place(source.currentRect)}`,
        );
        window.layoutShifts.push(`${entry.value.toFixed(4)}: ${moved.join(" | ")}`);
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/**
 * A browser without passkeys, as Android WebViews (LINE's in-app browser, where many parents open links) and
 * Lighthouse's Chromium are: no WebAuthn API at all, so neither the passkey button nor the autofill can work.
 */
async function withoutPasskeys(page: Page) {
  await page.addInitScript(() => {
    delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
  });
}

/** The layout shifts of each path that had any, from its first paint until it is hydrated and painted once more. */
async function shiftsWhileHydrating(page: Page, paths: string[]): Promise<Record<string, string[]>> {
  const moved: Record<string, string[]> = {};
  for (const path of paths) {
    await openPage(page, path);
    const shifts = await page.evaluate(
      () => new Promise<string[]>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.layoutShifts)))),
    );
    if (shifts.length > 0) moved[path] = shifts;
  }
  return moved;
}

/**
 * Nothing on a screen moves when its scripts arrive. A parent taps where a button is; if a part shown only with
 * JavaScript appears above it meanwhile (the passkeys screen's form did, 170 px), the tap lands elsewhere or nowhere.
 * Every screen of the route map at a fixed address but the operator's is opened signed in (the account holding a
 * passkey, so that 確認身分 offers one) and signed out.
 */
describe("the screens when their scripts arrive", () => {
  const browser = useBrowser();
  // Screens whose content changes on purpose once they run, with what the visitor sees meanwhile.
  const changesWhenChecked: Record<string, string> = { "/verify-email": "請按「完成驗證」。 in the server's HTML (all a browser without JavaScript shows), then 正在驗證你的電子郵件… until the link is checked" };
  const screens = routeMap
    .flatMap((entry) => (entry.kind === "screen" && entry.audience !== "operator" ? (fixedAddress(entry) ?? []) : []))
    .filter((path) => !(path in changesWhenChecked));

  it("move nothing for a signed-in parent", async () => {
    const page = await browser.newPage();
    await addVirtualAuthenticator(page);
    await watchLayoutShifts(page);
    const email = await createVerifiedAccount();
    await signInByApi(page, email);
    await openPage(page, "/account/passkeys");
    await page.getByRole("button", { name: "新增密碼金鑰" }).click();
    await page.getByRole("status").filter({ hasText: "已新增密碼金鑰" }).waitFor();

    expect(screens).toContain("/account/confirm-identity");
    expect(await shiftsWhileHydrating(page, screens)).toEqual({});
    await page.context().close();
  });

  it("keep the bar's links where they are when a prerendered page learns who is signed in", async () => {
    const page = await browser.newPage({ viewport: desktopViewport });
    const linksStart = async (userArea: string) => {
      await openPage(page, "/privacy");
      await page.locator(userArea).waitFor();
      return page.getByRole("navigation", { name: "主要導覽" }).evaluate((nav) => nav.getBoundingClientRect().left);
    };
    const signedOut = await linksStart(".user-area:not(.user-menu)");
    // The longest name the bar shows before cutting it.
    const name = "一二三四五六七八九十一二三四五六七八九十";
    await signInByApi(page, await createVerifiedAccount(undefined, name));
    expect(await linksStart(".user-menu")).toBe(signedOut);
    await page.context().close();
  });

  it("move nothing for a visitor", async () => {
    const page = await browser.newPage();
    await watchLayoutShifts(page);
    expect(await shiftsWhileHydrating(page, screens)).toEqual({});
    await page.context().close();
  });

  it("move nothing in a browser without passkeys, for a visitor", async () => {
    const page = await browser.newPage();
    await withoutPasskeys(page);
    await watchLayoutShifts(page);
    expect(screens).toContain("/login");
    expect(await shiftsWhileHydrating(page, screens)).toEqual({});
    expect(await page.evaluate(() => "PublicKeyCredential" in window)).toBe(false);
    await page.context().close();
  });

  it("move nothing in a browser without passkeys, for a signed-in parent", async () => {
    const page = await browser.newPage();
    await withoutPasskeys(page);
    await watchLayoutShifts(page);
    await signInByApi(page, await createVerifiedAccount());
    expect(await shiftsWhileHydrating(page, screens)).toEqual({});
    await page.context().close();
  });
});
