import { describe, expect, it } from "vitest";
import { baseURL, mobileViewport, openPage, saveScreenshot, shellViewports, useBrowser } from "./helpers/browser";

// The footer's 分享網站 and 追蹤我們 without JavaScript (issue 32, item 10): links that do the work themselves, at
// 375 px and 1280 px; with JavaScript the same controls open their dialogs and are not followed.

describe("the footer without JavaScript", () => {
  const browser = useBrowser();

  describe.each(shellViewports)("at %s", (_label, viewport) => {
    it("分享網站 shows the share links and the site's address; 追蹤我們 leads to 最新消息 (nothing configured)", async () => {
      const page = await browser.newPage({ javaScriptEnabled: false, viewport });
      await page.goto("/");
      const footer = page.locator("footer");
      const share = footer.getByRole("region", { name: "支持我們" });
      expect(await share.getByRole("link", { name: "分享到 LINE" }).isVisible()).toBe(false);

      await footer.getByRole("button", { name: "分享網站" }).click();
      expect(new URL(page.url()).hash).toBe("#share-site");
      const links = share.getByRole("link", { name: /^分享到 / });
      expect(await links.allTextContents()).toEqual(["分享到 Facebook", "分享到 Twitter (X)", "分享到 LINE"]);
      for (const link of await links.all()) {
        expect(await link.isVisible()).toBe(true);
        expect(await link.getAttribute("href")).toContain(encodeURIComponent(baseURL()));
      }
      expect(await share.getByText(`網址：${baseURL()}`).isVisible()).toBe(true);
      await saveScreenshot(page, `round2-item10-share-without-javascript-${viewport.width}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      await footer.getByRole("button", { name: "追蹤我們" }).click();
      await page.waitForURL("**/news");
      await page.getByRole("heading", { level: 1 }).waitFor();
      await page.context().close();
    });
  });

  it("with JavaScript the same controls open their dialogs, and the page's address does not change", async () => {
    const page = await browser.newPage({ viewport: mobileViewport });
    await openPage(page, "/");
    await page.locator("footer").getByRole("button", { name: "分享網站" }).click();
    await page.getByRole("dialog", { name: "分享網站" }).waitFor();
    await page.keyboard.press("Escape");
    await page.locator("footer").getByRole("button", { name: "追蹤我們" }).click();
    await page.getByRole("dialog", { name: "追蹤我們" }).getByRole("link", { name: "前往最新消息" }).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).hash).toBe("/");
    expect(await page.locator("#share-site").isVisible()).toBe(false);
    await page.context().close();
  });
});
