import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { fixedAddress, routeMap } from "~/lib/route-map";
import { createVerifiedAccount, signInTo } from "./helpers/accounts";
import { addVirtualAuthenticator, openPage, useBrowser } from "./helpers/browser";

declare global {
  interface Window {
    layoutShifts: string[];
  }
}

/**
 * What the browser reports as moved on the page, from the first paint until it is hydrated (and painted once
 * more): each layout shift with the elements that moved. A user's own input does not count (`hadRecentInput`).
 */
async function shiftsWhileHydrating(page: Page, path: string): Promise<string[]> {
  await openPage(page, path);
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.layoutShifts))),
      ),
  );
}

/**
 * Nothing on a signed-in screen moves when its scripts arrive. A parent taps where a button is; if a part shown only
 * with JavaScript appears above it meanwhile (the passkeys screen's form did, 170 px), the tap lands elsewhere or
 * nowhere. Every screen of the route map for signed-in visitors at a fixed address is opened signed in, the account
 * holding a passkey so that 確認身分 offers one. The public pages are held to the same by Lighthouse's layout-shift
 * score.
 */
describe("the signed-in screens when their scripts arrive", () => {
  const browser = useBrowser();
  const screens = routeMap.flatMap((entry) => (entry.kind === "screen" && entry.audience === "signed-in" ? (fixedAddress(entry) ?? []) : []));

  it("move nothing", async () => {
    const page = await browser.newPage();
    await addVirtualAuthenticator(page);
    await page.addInitScript(() => {
      window.layoutShifts = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { hadRecentInput: boolean; value: number; sources: { node?: Node | null }[] }[]) {
          if (entry.hadRecentInput) continue;
          const moved = entry.sources.map((source) => (source.node instanceof Element ? source.node.outerHTML.slice(0, 80) : String(source.node?.nodeName)));
          window.layoutShifts.push(`${entry.value.toFixed(4)}: ${moved.join(" | ")}`);
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    const email = await createVerifiedAccount(page);
    await signInTo(page, email, "/account/passkeys");
    await openPage(page, "/account/passkeys");
    await page.getByRole("button", { name: "新增密碼金鑰" }).click();
    await page.getByRole("status").filter({ hasText: "已新增密碼金鑰" }).waitFor();

    expect(screens).toContain("/account/confirm-identity");
    const moved: Record<string, string[]> = {};
    for (const path of screens) {
      const shifts = await shiftsWhileHydrating(page, path);
      if (shifts.length > 0) moved[path] = shifts;
    }
    expect(moved).toEqual({});
    await page.context().close();
  });
});
