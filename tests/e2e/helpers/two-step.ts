import type { Page } from "playwright-core";
import { TOTP } from "otpauth";
import { createVerifiedAccount, newEmail, password, signInTo } from "./accounts";
import { openPage } from "./browser";

const STEP_MS = 30_000;
/** The previous step's code is offered only while this much of the current step is left: it expires with it. */
const PREVIOUS_STEP_MARGIN_MS = 10_000;

/**
 * An authenticator app: the code of this 30-second step, of the next, or of the previous while the current step
 * has time left (the server accepts ±1 step). A code is never accepted twice, so once all three are spent it
 * waits for the next step, as a parent would.
 */
export function authenticatorApp(secret: string) {
  const totp = new TOTP({ secret: secret.replace(/\s+/g, ""), digits: 6, period: STEP_MS / 1000 });
  const given = new Set<string>();
  return async (): Promise<string> => {
    for (;;) {
      const leftInStep = STEP_MS - (Date.now() % STEP_MS);
      for (const offset of leftInStep > PREVIOUS_STEP_MARGIN_MS ? [0, 1, -1] : [0, 1]) {
        const code = totp.generate({ timestamp: Date.now() + offset * STEP_MS });
        if (!given.has(code)) {
          given.add(code);
          return code;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, STEP_MS - (Date.now() % STEP_MS) + 200));
    }
  };
}

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
  await signInTo(setup, email, "/account");
  const { nextCode, backupCodes } = await turnOnTwoStep(setup);
  await setup.context().close();
  return { email, nextCode, backupCodes };
}
