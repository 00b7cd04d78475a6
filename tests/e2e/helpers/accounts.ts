import { randomUUID } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import type { Page } from "playwright-core";
import { baseURL, familyHeaders, openPage, serverDataDir } from "./browser";
import { linkTo, mailTo } from "./mailbox";

export const password = "family-123";
export const newEmail = () => `e2e-${randomUUID().slice(0, 8)}@example.tw`;

/** A fresh Taiwanese mobile: its E.164 form (the mailbox key) and how a parent types it. */
export function newNumber() {
  const digits = String(Math.floor(Math.random() * 1e8)).padStart(8, "0");
  return { e164: `+8869${digits}`, typed: `09${digits.slice(0, 2)}-${digits.slice(2, 5)}-${digits.slice(5)}` };
}

/** The session user the page mirrors in localStorage["user"], or null. */
export const storedUser = (page: Page) =>
  page.evaluate(() => JSON.parse(window.localStorage.getItem("user") ?? "null") as Record<string, unknown> | null);

/** Signs up through /signup; the user is then signed in, unverified, on /email-verification. */
export async function signUp(page: Page, email: string, name = "小明") {
  await openPage(page, "/signup");
  await submitSignUp(page, email, name);
}

/** Fills in and sends the sign-up form already on screen (a guest's upgrade too), then waits for /email-verification. */
export async function submitSignUp(page: Page, email: string, name = "小明") {
  await page.getByLabel("顯示名稱").fill(name);
  await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
  await page.getByLabel("密碼", { exact: true }).fill(password);
  await page.getByLabel("確認密碼").fill(password);
  // A guest's button names the upgrade.
  await page.getByRole("button", { name: /^(註冊|升級成正式帳號)$/ }).click();
  await page.waitForURL((url) => url.pathname === "/email-verification");
}

/**
 * A verified account with `password`, made through the sign-in API and the mailbox (signed in nowhere): the
 * mailed link's token posted to /verify-email as its form does without JavaScript. For tests whose subject comes
 * after the sign-up; the sign-up and verification screens have their own tests (auth, forms-without-javascript).
 */
export async function createVerifiedAccount(email = newEmail(), name = "測試編輯"): Promise<string> {
  const origin = baseURL();
  const headers = { origin, ...familyHeaders() };
  const signedUp = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ email, password, name }),
  });
  if (signedUp.status !== 200) throw new Error(`sign-up answered ${signedUp.status}`);
  const link = new URL(linkTo(await mailTo(email, /驗證/), "/verify-email"), origin);
  const verified = await fetch(`${origin}/verify-email`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: link.searchParams.get("token") ?? "" }),
    redirect: "manual",
  });
  if (verified.status !== 200 || !(await verified.text()).includes("已完成驗證")) throw new Error(`verification answered ${verified.status}`);
  return email;
}

/** Fills the sign-in form already on screen and waits until the site brings the user back to `returnTo`. */
export async function signInHere(page: Page, email: string, returnTo: string, secret = password) {
  await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
  await page.getByLabel("密碼").fill(secret);
  await page.getByRole("button", { name: "登入", exact: true }).click();
  await page.waitForURL(`**${returnTo}`);
}

/** Opens /login on its way to `returnTo` (with or without JavaScript: no wait for hydration) and signs in there. */
export async function signInTo(page: Page, email: string, returnTo: string, secret = password) {
  await page.goto(`/login?redirectTo=${encodeURIComponent(returnTo)}`);
  await signInHere(page, email, returnTo, secret);
}

/**
 * Signs the page's browser in through the sign-in API the form posts to (the session cookie lands in the page's
 * context, with the context's address), without loading /login and the screen it returns to: for tests whose subject
 * comes after the sign-in. The form itself has its own tests (auth, forms-without-javascript, the callers of signInTo).
 */
export async function signInByApi(page: Page, email: string, secret = password) {
  const answer = await page.request.post("/api/auth/sign-in/email", { headers: { origin: baseURL() }, data: { email, password: secret } });
  if (answer.status() !== 200) throw new Error(`sign-in answered ${answer.status()}: ${(await answer.text()).slice(0, 200)}`);
}

/**
 * Signs the page's browser up through the sign-up API the form posts to (then signed in, unverified), without the
 * sign-up screen: for tests whose subject is the signed-in visitor, not the form (auth and forms-without-javascript
 * test it, and `signUp`'s callers).
 */
export async function signUpByApi(page: Page, email: string, name = "小明") {
  const answer = await page.request.post("/api/auth/sign-up/email", { headers: { origin: baseURL() }, data: { email, password, name } });
  if (answer.status() !== 200) throw new Error(`sign-up answered ${answer.status()}: ${(await answer.text()).slice(0, 200)}`);
}

/** Runs one update on the server's database: `postgres` and `sqlite` are the same statement in each dialect. */
async function updateServerDatabase(postgres: string, sqlite: string, parameters: unknown[]) {
  const url = process.env.E2E_DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url });
    await pool.query(postgres, parameters);
    await pool.end();
    return;
  }
  const db = new Database(path.join(serverDataDir(), "app.db"));
  db.pragma("busy_timeout = 5000");
  db.prepare(sqlite).run(...parameters);
  db.close();
}

/** Moves every session of the account eleven minutes back, as if signed in that long ago (the server's database). */
export async function ageSessions(email: string) {
  const then = new Date(Date.now() - 11 * 60 * 1000);
  const postgres = `update session set "createdAt" = $1 where "userId" = (select id from "user" where email = $2)`;
  await updateServerDatabase(postgres, `update session set createdAt = ? where userId = (select id from user where email = ?)`, [process.env.E2E_DATABASE_URL ? then : then.toISOString(), email]);
}

/**
 * Gives the account a verified phone number (E.164) without texting it: for tests of signing in with one, so the
 * growing wait between two texts to a number (ways-in/phone/phone.server.ts) starts at their own text.
 */
export async function givePhoneNumber(email: string, e164: string) {
  const postgres = `update "user" set "phoneNumber" = $1, "phoneNumberVerified" = true where email = $2`;
  await updateServerDatabase(postgres, `update user set phoneNumber = ?, phoneNumberVerified = 1 where email = ?`, [e164, email]);
}
