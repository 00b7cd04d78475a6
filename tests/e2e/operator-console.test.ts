import path from "node:path";
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, inject, it } from "vitest";
import { createVerifiedAccount, signInTo } from "./helpers/accounts";
import { baseURL, expectNoAxeViolations, useBrowser } from "./helpers/browser";
import { runOperatorScript } from "./helpers/operator";

/** Gives the account a passkey row (the console asks for two-step sign-in or a passkey), in the server's database. */
async function givePasskey(email: string) {
  const values = [randomUUID(), "測試金鑰", randomUUID(), "AA", new Date().toISOString(), email];
  const insert = `insert into passkey (id, user_id, name, credential_id, public_key, counter, transports, backed_up, created_at) select $1, id, $2, $3, $4, 0, '', 0, $5 from "user" where email = $6`;
  const url = process.env.E2E_DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url });
    await pool.query(insert, values);
    await pool.end();
    return;
  }
  const db = new Database(path.join(inject("dataDir"), "app.db"));
  db.pragma("busy_timeout = 5000");
  db.prepare(insert.replace(/\$\d/g, "?")).run(...values);
  db.close();
}

const signInStatus = async (email: string, secret: string) =>
  (await fetch(`${baseURL()}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json", origin: baseURL() }, body: JSON.stringify({ email, password: secret }) })).status;

describe("the operator's side", () => {
  const browser = useBrowser();

  it("帳號安全 lists the parent's own activity in Taiwan time, and 「這不是我」 signs out the other devices", async () => {
    const page = await browser.newPage();
    const email = await createVerifiedAccount(page, undefined, "小芳");
    expect(await signInStatus(email, "not-her-password")).toBe(401);
    await signInTo(page, email, "/account/security");
    const activity = page.getByRole("region", { name: "最近的帳號活動" });
    await activity.getByText("未成功").first().waitFor();
    await expect(activity.getByRole("listitem").filter({ hasText: "登入" }).count()).resolves.toBeGreaterThanOrEqual(2);
    await expect(activity.getByText("完成電子郵件驗證").count()).resolves.toBe(1);
    await expectNoAxeViolations(page);
    await activity.getByRole("button", { name: "這不是我" }).click();
    await activity.getByText(/已登出其他所有裝置。請馬上在「更改密碼」設定新密碼/).waitFor();
  });

  it("an admin with a passkey finds a parent, locks the account with a reason, and the parent cannot sign in; others get 404", async () => {
    const page = await browser.newPage();
    const parent = await createVerifiedAccount(page, undefined, "王家長");
    const admin = await createVerifiedAccount(page, undefined, "客服小美");
    expect(runOperatorScript("scripts/user-role.mjs", [admin, "admin"]).status).toBe(0);

    const parentPage = await browser.newPage();
    await signInTo(parentPage, parent, "/account/security");
    expect((await parentPage.goto("/admin"))?.status()).toBe(404);
    await parentPage.getByRole("heading", { name: "找不到頁面" }).waitFor();

    await signInTo(page, admin, "/account/security");
    expect((await page.goto("/admin"))?.status()).toBe(403);
    await page.getByText("管理員必須先開啟兩步驟驗證或新增通行金鑰").waitFor();
    await givePasskey(admin);

    await page.goto("/admin");
    await page.getByRole("searchbox", { name: "找家長" }).fill(parent);
    await page.getByRole("button", { name: "搜尋" }).click();
    await page.getByRole("link", { name: parent }).click();
    await page.getByRole("heading", { name: parent }).waitFor();
    await page.getByRole("region", { name: "最近寄給這個帳號的信" }).getByText(/驗證/).first().waitFor();
    await expectNoAxeViolations(page);

    const lock = page.getByRole("form", { name: "停用帳號" });
    await lock.getByLabel("原因（會記在安全紀錄）").fill("家長來信說有人登入他的帳號");
    await lock.getByRole("button", { name: "停用帳號" }).click();
    await page.getByText(/帳號已停用，並結束 \d+ 個登入/).waitFor();
    expect(await signInStatus(parent, "family-123")).toBe(403);
    await parentPage.reload();
    await parentPage.getByRole("heading", { name: "登入後管理帳號安全" }).waitFor();

    await page.reload();
    const record = page.getByRole("region", { name: "安全紀錄（最近 200 筆）" });
    await record.getByText("客服停用帳號（原因：家長來信說有人登入他的帳號）").waitFor();
  });
});
