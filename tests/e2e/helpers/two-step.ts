import type { Page } from "playwright-core";
import { authenticatorApp } from "~tests/helpers/authenticator-app";
import { createVerifiedAccount, newEmail, password, signInByApi } from "./accounts";
import { openPage } from "./browser";

/**
 * Turns two-step sign-in on for the account signed in on `page` (with JavaScript) through /account/two-step:
 * the authenticator app (its first code is spent on the enrolment) and the backup codes shown then.
 */
export async function turnOnTwoStep(page: Page) {
  await openPage(page, "/account/two-step");
  await page.getByLabel("目前的密碼").fill(password);
  await page.getByRole("button", { name: "開始設定" }).click();
  const secret = (await page.locator(".two-step-secret code").textContent()) ?? "";
  const backupCodes = await page.locator(".two-step-codes code").allTextContents();
  const nextCode = authenticatorApp(secret);
  await page.getByRole("textbox", { name: "驗證碼" }).fill(await nextCode());
  await page.getByRole("button", { name: "確認並開啟" }).click();
  await page.getByRole("status").filter({ hasText: "兩步驟驗證已開啟" }).waitFor();
  return { nextCode, backupCodes };
}

/**
 * A verified account with two-step sign-in on, made on `setup` (a fresh page with JavaScript, closed afterwards):
 * its address, its authenticator app and its backup codes.
 */
export async function accountWithTwoStep(setup: Page, name?: string) {
  const email = await createVerifiedAccount(newEmail(), name);
  await signInByApi(setup, email);
  const { nextCode, backupCodes } = await turnOnTwoStep(setup);
  await setup.context().close();
  return { email, nextCode, backupCodes };
}
