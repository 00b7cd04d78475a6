import exifr from "exifr";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { newEmail, signUpByApi } from "./helpers/accounts";
import { openPage, useBrowser } from "./helpers/browser";

/**
 * The profile photo in Chromium against the built site: 更換大頭貼 in the dropdown uploads through the site's
 * own browser client, which retries a 503 and waits out a 429's Retry-After; the bar then shows the photo,
 * a 256 px square without EXIF or GPS.
 */
const phonePhoto = () =>
  sharp({ create: { width: 1600, height: 1200, channels: 3, background: "#ffb347" } })
    .jpeg()
    .withExifMerge({
      IFD0: { Make: "TestPhone" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "25/1 2/1 3/1", GPSLongitudeRef: "E", GPSLongitude: "121/1 33/1 0/1" },
    })
    .toBuffer();

// The dropdown is a <details>: its toggle is the <summary> holding the name.
async function openDropdown(page: Page, name: string) {
  await page.locator("header .user-area summary", { hasText: name }).click();
}

/** Answers the first upload request with `first`, lets the others through, and records when each came. */
async function failFirstUpload(page: Page, first: { status: number; headers?: Record<string, string> }) {
  const seen: number[] = [];
  await page.route("**/v0/b/default/o?name=*", async (route) => {
    seen.push(Date.now());
    if (seen.length === 1) {
      await route.fulfill({ status: first.status, headers: first.headers, contentType: "application/json", body: "{}" });
    } else {
      await route.continue();
    }
  });
  return seen;
}

describe("profile photo", () => {
  const browser = useBrowser();

  it("uploads through a 503, shows the cropped photo in the bar and the dropdown, without EXIF or GPS", async () => {
    const page = await browser.newPage();
    await signUpByApi(page, newEmail(), "小芳");
    await openPage(page, "/");
    const seen = await failFirstUpload(page, { status: 503 });
    await openDropdown(page, "小芳");
    await page.getByLabel("更換大頭貼").setInputFiles({ name: "IMG_0001.jpg", mimeType: "image/jpeg", buffer: await phonePhoto() });
    await page.getByText("大頭貼已更新").waitFor();
    expect(seen).toHaveLength(2);
    expect(seen[1]! - seen[0]!).toBeGreaterThanOrEqual(1000);

    const images = page.locator("header .user-menu img.user-menu__avatar");
    await images.first().waitFor();
    expect(await images.count()).toBe(2);
    const src = (await images.first().getAttribute("src")) ?? "";
    expect(src).toMatch(/\/v0\/b\/default\/o\/users%2F[^%]+%2Favatar\?alt=media&token=[0-9a-f-]{36}$/);
    const response = await page.request.get(src);
    expect(response.headers()["x-content-type-options"]).toBe("nosniff");
    const stored = await response.body();
    expect(await sharp(stored).metadata()).toMatchObject({ width: 256, height: 256, format: "jpeg" });
    expect(await exifr.parse(stored, { gps: true })).toBeUndefined();
    await page.context().close();
  });

  it("waits as long as a 429's Retry-After asks, then succeeds", async () => {
    const page = await browser.newPage();
    await signUpByApi(page, newEmail(), "小傑");
    await openPage(page, "/");
    const seen = await failFirstUpload(page, { status: 429, headers: { "Retry-After": "3" } });
    await openDropdown(page, "小傑");
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#4a6bff" } }).png().toBuffer();
    await page.getByLabel("更換大頭貼").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
    await page.getByText("大頭貼已更新").waitFor({ timeout: 15_000 });
    expect(seen).toHaveLength(2);
    expect(seen[1]! - seen[0]!).toBeGreaterThanOrEqual(3000);
    await page.context().close();
  });

  it("says in Chinese why an SVG is refused", async () => {
    const page = await browser.newPage();
    await signUpByApi(page, newEmail(), "小安");
    await openPage(page, "/");
    await openDropdown(page, "小安");
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    await page.getByLabel("更換大頭貼").setInputFiles({ name: "me.svg", mimeType: "image/svg+xml", buffer: svg });
    await page.getByRole("alert").filter({ hasText: "只能上傳 PNG、JPEG、WebP 或 GIF 圖片" }).waitFor();
    expect(await page.locator("header .user-menu img").count()).toBe(0);
    await page.context().close();
  });
});
