import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { firebaseScryptHash } from "~/features/firebase-import/firebase-scrypt.server";
import { newNumber } from "./helpers/accounts";
import { openPage, useBrowser } from "./helpers/browser";
import { textedCode } from "./helpers/mailbox";
import { runOperatorScript } from "./helpers/operator";

// Families coming over from Firebase (issue 40), as a parent meets it: the operator imports the project's
// `firebase auth:export` into the running site (`npm run import:firebase`), then each family signs in the way it
// always did, in Chromium, and lands in its own account (the Firebase uid kept, so the app's data still matches).

// A Firebase project's hash parameters (the published test vector's; a real project has its own key).
const hashParameters = {
  signerKey: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
  saltSeparator: "Bw==",
  rounds: 8,
  memCost: 14,
};
const firebaseUid = () => randomBytes(21).toString("base64url").slice(0, 28);

interface SignedIn {
  uid: string;
  email: string | null;
  displayName: string | null;
}
async function me(page: Page): Promise<SignedIn | null> {
  return ((await (await page.request.get("/api/auth/me")).json()) as { user: SignedIn | null }).user;
}

/** Writes the export and runs the import as an operator would, with the project's hash parameters. */
function importExport(users: object[]) {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "firebase-export-")), "users.json");
  fs.writeFileSync(file, JSON.stringify({ users }));
  const run = runOperatorScript("scripts/import-firebase.mjs", [
    "--users", file,
    "--hash-key", hashParameters.signerKey,
    "--salt-separator", hashParameters.saltSeparator,
    "--rounds", String(hashParameters.rounds),
    "--mem-cost", String(hashParameters.memCost),
  ]);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

describe("families coming over from Firebase", () => {
  const browser = useBrowser();
  const run = randomUUID().slice(0, 8);
  const password = "firebase-kite-42";
  const phone = newNumber();
  const family = { uid: firebaseUid(), email: `firebase-${run}@example.tw` };
  const phoneOnly = { uid: firebaseUid() };
  const google = { uid: firebaseUid(), email: `google-${run}@gmail.com`, rawId: `1${Date.now()}` };

  it("imports the export, and each family signs in as before, into the account with its Firebase uid", async () => {
    const salt = randomBytes(12).toString("base64");
    const summary = importExport([
      {
        localId: family.uid,
        email: family.email,
        emailVerified: true,
        passwordHash: await firebaseScryptHash(password, salt, hashParameters),
        salt,
        displayName: "林媽媽",
        createdAt: "1700000000000",
        providerUserInfo: [{ providerId: "password", rawId: family.email, federatedId: family.email, email: family.email }],
      },
      { localId: phoneOnly.uid, phoneNumber: phone.e164, createdAt: "1700000000000", providerUserInfo: [{ providerId: "phone", rawId: phone.e164, phoneNumber: phone.e164 }] },
      {
        localId: google.uid,
        email: google.email,
        emailVerified: true,
        displayName: "王爸爸",
        createdAt: "1700000000000",
        providerUserInfo: [{ providerId: "google.com", rawId: google.rawId, federatedId: google.rawId, email: google.email }],
      },
    ]);
    expect(summary).toContain("共 3 個帳號：新匯入 3");

    // The Firebase password on /login, with JavaScript; then again once it has been rehashed at the first sign-in.
    for (const attempt of ["Firebase's hash", "rehashed"]) {
      const page = await browser.newPage();
      await openPage(page, "/login");
      await page.getByRole("textbox", { name: "電子郵件" }).fill(family.email);
      await page.getByLabel("密碼").fill(password);
      await page.getByRole("button", { name: "登入", exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/");
      expect(await me(page), attempt).toMatchObject({ uid: family.uid, email: family.email, displayName: "林媽媽" });
      await page.context().close();
    }

    // Without JavaScript, a wrong password is refused in words, and the right one still works.
    const plain = await browser.newPage({ javaScriptEnabled: false });
    await plain.goto("/login");
    await plain.getByRole("textbox", { name: "電子郵件" }).fill(family.email);
    await plain.getByLabel("密碼").fill("not-the-password");
    await plain.getByRole("button", { name: "登入", exact: true }).click();
    await plain.getByText("電子郵件或密碼錯誤").waitFor();

    // A phone-only family: its number gets a texted code and signs in to the same uid, asked no name.
    const byPhone = await browser.newPage();
    await openPage(byPhone, "/login/phone");
    await byPhone.getByLabel("手機號碼").fill(phone.typed);
    await byPhone.getByRole("button", { name: "傳送驗證碼" }).click();
    await byPhone.getByLabel("簡訊驗證碼").fill(await textedCode(phone.e164));
    await byPhone.getByRole("button", { name: "登入", exact: true }).click();
    await byPhone.waitForURL((url) => url.pathname === "/");
    expect(await me(byPhone)).toMatchObject({ uid: phoneOnly.uid });

    // A Google family, through the development provider (which links by the verified email, as Google does here).
    const social = await browser.newPage();
    await openPage(social, "/login");
    const popupOpened = social.waitForEvent("popup");
    await social.getByRole("button", { name: "使用開發測試帳號登入" }).click();
    const popup = await popupOpened;
    await popup.getByRole("textbox", { name: "電子郵件" }).fill(google.email);
    await popup.getByRole("button", { name: "繼續" }).click();
    await social.waitForURL((url) => url.pathname === "/");
    expect(await me(social)).toMatchObject({ uid: google.uid, email: google.email, displayName: "王爸爸" });
  });
});
