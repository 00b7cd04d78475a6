import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectNoAxeViolations, mobileViewport, openPage, saveScreenshot, useBrowser, waitForHydration } from "./helpers/browser";

const route = "/task-scheduler";

/** Opens (or reloads) the scheduler and waits until it has read the tables saved in this browser. */
async function openScheduler(page: Page, reload = false) {
  if (reload) await page.reload();
  else await openPage(page, route);
  await page.locator('html[data-hydrated] [aria-busy="false"]').waitFor({ state: "attached" });
}

/** Task names as the week table lists them, top to bottom. */
function tableTaskNames(page: Page) {
  return page.locator(".tick-table tbody th[scope=row] .tick-table__name").allTextContents();
}

async function buildFromTemplate(page: Page, age: string, childName: string) {
  await page.getByRole("button", { name: age, exact: true }).click();
  await page.getByRole("button", { name: `全部加入（${age}）` }).click();
  await page.getByLabel("孩子的名字").fill(childName);
}

/** Chromium writes one `/Type /Page` object per page (and one `/Type /Pages` tree node). */
function pdfPageCount(pdf: Buffer): number {
  return pdf.toString("latin1").match(/\/Type\s*\/Page(?!s)/g)?.length ?? 0;
}

describe("free task scheduler", () => {
  const browser = useBrowser();

  it("builds a table from a template at 375 px, ticks cells and finds them kept after a reload", async () => {
    const page = await browser.newPage({ viewport: mobileViewport });
    await openScheduler(page);
    await expectNoAxeViolations(page, "scheduler, empty");

    await buildFromTemplate(page, "6–8 歲", "小明");
    await expect(page.getByRole("table", { name: /小明的任務表/ }).count()).resolves.toBe(1);
    expect(await tableTaskNames(page)).toHaveLength(8);
    await page.getByRole("checkbox", { name: "星期一 刷牙洗臉 完成" }).check();
    await page.getByRole("checkbox", { name: "星期三 寫完功課 完成" }).check();
    await expect(page.locator(".tick-table__stars").textContent()).resolves.toBe("本週星星：2 / 52 顆");

    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    expect(widths.page).toBe(widths.viewport);
    await expectNoAxeViolations(page, "scheduler, filled at 375 px");

    await openScheduler(page, true);
    await page.getByRole("table", { name: /小明的任務表/ }).waitFor();
    expect(await page.getByRole("checkbox", { name: "星期一 刷牙洗臉 完成" }).isChecked()).toBe(true);
    expect(await page.getByRole("checkbox", { name: "星期三 寫完功課 完成" }).isChecked()).toBe(true);
    expect(await page.getByRole("checkbox", { name: "星期二 刷牙洗臉 完成" }).isChecked()).toBe(false);

    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "開始新的一週" }).click();
    expect(await page.getByRole("checkbox", { name: "星期一 刷牙洗臉 完成" }).isChecked()).toBe(false);
    expect(await tableTaskNames(page)).toHaveLength(8);
    await page.context().close();
  });

  it("renders the page on the server before any script runs", async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto(route);
    expect(await page.locator("h1").textContent()).toBe("免費任務表");
    expect(await page.getByRole("table", { name: /我的任務表/ }).count()).toBe(1);
    // No APP_URL here: the invitation leads to sign-up, never a placeholder address.
    expect(await page.getByRole("complementary", { name: "想讓孩子自己在手機上打勾？" }).getByRole("link", { name: /立即開始/ }).getAttribute("href")).toBe("/signup");
    await page.context().close();
  });

  /** The table's title stays in view when its week grid is scrolled sideways, and the page itself never scrolls. */
  async function expectTitleInView(page: Page) {
    await page.locator(".tick-table-scroll").evaluate((region) => region.scrollBy(600, 0));
    const title = await page.locator(".tick-table__title").boundingBox();
    expect(title!.x).toBeGreaterThanOrEqual(0);
    expect(title!.x + title!.width).toBeLessThanOrEqual(mobileViewport.width);
    expect(await page.locator(".tick-table-scroll").evaluate((region) => region.scrollLeft)).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(mobileViewport.width);
  }

  it("without JavaScript at 375 px: says what needs it, and 加入 and 全部加入 build a printable table from the server's HTML", async () => {
    const page = await browser.newPage({ javaScriptEnabled: false, viewport: mobileViewport });
    await page.goto(route);
    await page.getByText(/這個瀏覽器沒有開啟 JavaScript：你還是可以從下面的範本挑任務排出一張表/).waitFor();
    await page.getByRole("button", { name: "3–5 歲", exact: true }).click();
    await page.getByRole("button", { name: "加入「起床刷牙」" }).click();
    expect(await tableTaskNames(page)).toEqual(["起床刷牙"]);
    expect(await page.getByRole("button", { name: "「起床刷牙」已加入" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "全部加入（3–5 歲）" }).click();
    expect(await tableTaskNames(page)).toHaveLength(8);
    expect((await tableTaskNames(page))[0]).toBe("起床刷牙");
    await page.getByRole("button", { name: "6–8 歲", exact: true }).click();
    await page.getByRole("button", { name: "加入「寫完功課」" }).click();
    expect(await tableTaskNames(page)).toHaveLength(9);
    await expectTitleInView(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshot(page, "round2-item05-scheduler-without-javascript-375");
    await page.context().close();
  });

  it("keeps 加入 and 全部加入 tapped before the page's scripts arrive, once each, in the table saved in the browser", async () => {
    const page = await browser.newPage({ viewport: mobileViewport });
    await page.route("**/assets/*.js", async (routed) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await routed.continue();
    });
    await page.goto(route, { waitUntil: "load" });
    expect(await page.locator("html[data-hydrated]").count()).toBe(0);
    await page.getByRole("button", { name: "加入「刷牙洗臉」" }).click();
    await page.locator('html[data-hydrated] [aria-busy="false"]').waitFor({ state: "attached" });
    // The held scripts include the storage code, read after hydration: up to a few seconds here.
    await expect.poll(() => tableTaskNames(page), { timeout: 10_000 }).toEqual(["刷牙洗臉"]);
    expect(new URL(page.url()).search).toBe("");

    await page.goto(route, { waitUntil: "load" });
    expect(await page.locator("html[data-hydrated]").count()).toBe(0);
    await page.getByRole("button", { name: "全部加入（6–8 歲）" }).click();
    await waitForHydration(page);
    await page.locator('html[data-hydrated] [aria-busy="false"]').waitFor({ state: "attached" });
    await expect.poll(() => tableTaskNames(page), { timeout: 10_000 }).toHaveLength(8);
    expect((await tableTaskNames(page)).filter((name) => name === "刷牙洗臉")).toHaveLength(1);
    await openScheduler(page, true);
    expect(await tableTaskNames(page)).toHaveLength(8);
    await expectTitleInView(page);
    await expectNoAxeViolations(page, "scheduler after early taps");
    await page.context().close();
  });

  it("reorders tasks from the keyboard and by dragging", async () => {
    const page = await browser.newPage();
    await openScheduler(page);
    await buildFromTemplate(page, "3–5 歲", "小美");
    const first = ["起床刷牙", "自己穿衣服", "好好吃完早餐"];
    expect((await tableTaskNames(page)).slice(0, 3)).toEqual(first);

    await page.getByRole("button", { name: "下移「起床刷牙」" }).focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    expect((await tableTaskNames(page)).slice(0, 3)).toEqual(["自己穿衣服", "好好吃完早餐", "起床刷牙"]);
    await page.keyboard.press("Shift+Tab"); // from 下移 back to 上移 of the same task
    await page.keyboard.press("Space");
    expect((await tableTaskNames(page)).slice(0, 3)).toEqual(["自己穿衣服", "起床刷牙", "好好吃完早餐"]);

    const item = (name: string) => page.locator(".task-list__item", { hasText: name });
    await item("好好吃完早餐").dragTo(item("自己穿衣服"));
    expect((await tableTaskNames(page)).slice(0, 3)).toEqual(["好好吃完早餐", "自己穿衣服", "起床刷牙"]);

    await openScheduler(page, true);
    await page.getByRole("table", { name: /小美的任務表/ }).waitFor();
    expect((await tableTaskNames(page)).slice(0, 3)).toEqual(["好好吃完早餐", "自己穿衣服", "起床刷牙"]);
    await page.context().close();
  });

  it("exports a backup file and imports it in another browser", async () => {
    const page = await browser.newPage({ acceptDownloads: true });
    await openScheduler(page);
    await buildFromTemplate(page, "9–12 歲", "小安");
    await page.getByRole("checkbox", { name: "星期五 整理床鋪 完成" }).check();

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "匯出備份" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^任務表備份-\d{4}-\d{2}-\d{2}\.json$/);
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "scheduler-")), download.suggestedFilename());
    await download.saveAs(file);
    const backup = JSON.parse(await fs.readFile(file, "utf8"));
    expect(backup.version).toBe(2);
    expect(backup.tables[0].childName).toBe("小安");
    await page.context().close();

    const other = await browser.newPage();
    await openScheduler(other);
    const notBackup = path.join(path.dirname(file), "not-a-backup.json");
    await fs.writeFile(notBackup, '{"hello":"world"}');
    await importFile(other, notBackup);
    await other.getByRole("status").filter({ hasText: "這個檔案讀不出任務表" }).waitFor();

    await importFile(other, file);
    await other.getByRole("table", { name: /小安的任務表/ }).waitFor();
    expect(await tableTaskNames(other)).toHaveLength(10);
    expect(await other.getByRole("checkbox", { name: "星期五 整理床鋪 完成" }).isChecked()).toBe(true);
    // The blank table the page started with gives way to the imported one.
    expect(await other.getByRole("group", { name: "選擇孩子的任務表" }).getByRole("button").allTextContents()).toEqual([
      "小安的任務表",
      "＋ 再做一張表",
    ]);
    await other.context().close();
    await fs.rm(path.dirname(file), { recursive: true, force: true });
  });

  it("prints one table on one A4 landscape page without the site's header and footer", async () => {
    const page = await browser.newPage();
    await openScheduler(page);
    await buildFromTemplate(page, "9–12 歲", "小安");
    // Fill the table to its limit, with long names: the worst case for one page.
    for (let index = 0; index < 10; index += 1) {
      await page.getByLabel("任務名稱").fill(`幫忙做家事第${index + 1}項要認真`);
      await page.getByRole("button", { name: "新增任務" }).click();
    }
    expect(await tableTaskNames(page)).toHaveLength(20);
    await expect(page.getByRole("button", { name: "新增任務" }).isDisabled()).resolves.toBe(true);

    await page.emulateMedia({ media: "print" });
    for (const chrome of ['nav[aria-label="主要導覽"]', "footer", ".scheduler-intro", ".app-invite"]) {
      expect(await page.locator(chrome).first().isVisible(), chrome).toBe(false);
    }
    expect(await page.locator(".tick-table").isVisible()).toBe(true);
    const pdf = await page.pdf({ format: "A4", landscape: true });
    expect(pdfPageCount(pdf)).toBe(1);
    await page.context().close();
  });

  it("opens the print dialog from the 列印 button", async () => {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      window.print = () => document.documentElement.setAttribute("data-printed", "");
    });
    await openScheduler(page);
    await page.getByRole("button", { name: "列印" }).click();
    expect(await page.locator("html[data-printed]").count()).toBe(1);
    await page.context().close();
  });
});

async function importFile(page: Page, file: string) {
  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), page.getByRole("button", { name: "匯入備份" }).click()]);
  await chooser.setFiles(file);
}
