import { describe, expect, it } from "vitest";
import { expectNoAxeViolations, openPage, useBrowser } from "./helpers/browser";

describe("current plan and account deletion for a visitor", () => {
  const browser = useBrowser();

  it("asks a visitor to sign in and come back to the current plan", async () => {
    const page = await browser.newPage();
    await openPage(page, "/current-plan");
    const signIn = page.getByRole("main").getByRole("link", { name: "登入", exact: true });
    expect(await signIn.getAttribute("href")).toBe("/login?redirectTo=/current-plan");
    await page.getByRole("heading", { name: "登入後查看你的方案" }).waitFor();
    expect(await page.getByRole("heading", { name: "使用限制" }).count()).toBe(0);
    await expectNoAxeViolations(page);
  });

  it("explains what deletion removes and keeps, how long it takes and how to ask by email", async () => {
    const page = await browser.newPage({ javaScriptEnabled: false });
    const response = await page.goto("/account-deletion");
    expect(response?.status()).toBe(200);
    const headings = await page.getByRole("heading", { level: 2 }).allTextContents();
    expect(headings).toEqual(expect.arrayContaining(["會刪除的資料", "會保留的資料", "需要多久", "以電子郵件申請刪除"]));
    const main = page.getByRole("main");
    await expect(main.textContent()).resolves.toContain("30 天內處理");
    const mail = main.getByRole("link", { name: "support@example.tw" });
    expect(await mail.getAttribute("href")).toBe(`mailto:support@example.tw?subject=${encodeURIComponent("刪除帳號申請")}`);
    await page.context().close();
  });

  it("passes axe on the account deletion page", async () => {
    const page = await browser.newPage();
    await openPage(page, "/account-deletion");
    await expectNoAxeViolations(page);
  });
});
