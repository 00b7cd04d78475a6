import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { openPage } from "./browser";

export const password = "family-123";
export const newEmail = () => `e2e-${randomUUID().slice(0, 8)}@example.tw`;

/** The session user the page mirrors in localStorage["user"], or null. */
export const storedUser = (page: Page) =>
  page.evaluate(() => JSON.parse(window.localStorage.getItem("user") ?? "null") as Record<string, unknown> | null);

/** Signs up through /signup; the user is then signed in, unverified, on /email-verification. */
export async function signUp(page: Page, email: string, name = "小明") {
  await openPage(page, "/signup");
  await page.getByLabel("顯示名稱").fill(name);
  await page.getByLabel("電子郵件").fill(email);
  await page.getByLabel("密碼", { exact: true }).fill(password);
  await page.getByLabel("確認密碼").fill(password);
  await page.getByRole("button", { name: "註冊" }).click();
  await page.waitForURL("**/email-verification");
}
