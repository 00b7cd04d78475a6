import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createVerifiedAccount, newEmail, password, signInByApi } from "./helpers/accounts";
import { baseURL, expectNoAxeViolations, openPage, useBrowser } from "./helpers/browser";
import { runOperatorScript } from "./helpers/operator";
import { turnOnTwoStep } from "./helpers/two-step";

const signInAnswer = async (email: string, secret: string) => {
  const response = await fetch(`${baseURL()}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json", origin: baseURL() }, body: JSON.stringify({ email, password: secret }) });
  return { status: response.status, body: (await response.json()) as { code?: string } };
};

describe("the operator's side", () => {
  const browser = useBrowser();

  it("帳號安全 lists the parent's own activity in Taiwan time, and 「這不是我」 signs out the other devices", async () => {
    const page = await browser.newPage();
    const email = await createVerifiedAccount(undefined, "小芳");
    expect((await signInAnswer(email, "not-her-password")).status).toBe(401);
    await signInByApi(page, email);
    await openPage(page, "/account/security");
    const activity = page.getByRole("region", { name: "最近的帳號活動" });
    await activity.getByText("未成功").first().waitFor();
    await expect(activity.getByRole("listitem").filter({ hasText: "登入" }).count()).resolves.toBeGreaterThanOrEqual(2);
    await expect(activity.getByText("完成電子郵件驗證").count()).resolves.toBe(1);
    await expectNoAxeViolations(page);
    await activity.getByRole("button", { name: "這不是我" }).click();
    await activity.getByText(/已登出其他所有裝置。請馬上在「更改密碼」設定新密碼/).waitFor();
  });

  /**
   * An admin with two-step sign-in, made through the site (the role by `npm run user:role`), signed in afresh in a
   * browser with or without JavaScript: password, then the authenticator's code.
   */
  async function signedInAdmin(javaScriptEnabled: boolean): Promise<Page> {
    const setup = await browser.newPage();
    const email = await createVerifiedAccount(newEmail(), "客服小美");
    expect(runOperatorScript("scripts/user-role.mjs", [email, "admin"]).status).toBe(0);
    await signInByApi(setup, email);
    const { nextCode } = await turnOnTwoStep(setup);
    await setup.context().close();

    const page = await browser.newPage({ javaScriptEnabled });
    await page.goto(`/login?redirectTo=${encodeURIComponent("/admin")}`);
    await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await page.getByLabel("密碼").fill(password);
    await page.getByRole("button", { name: "登入", exact: true }).click();
    await page.waitForURL("**/login/two-step**");
    await page.getByLabel("驗證碼").fill(await nextCode());
    await page.getByRole("button", { name: "驗證並登入" }).click();
    await page.waitForURL("**/admin");
    return page;
  }

  /** A parent signed in in their own browser, with a family and a child made on 家庭. */
  async function parentWithFamily() {
    const page = await browser.newPage({ javaScriptEnabled: false });
    const name = `林家長${newEmail().slice(4, 10)}`;
    const email = await createVerifiedAccount(newEmail(), name);
    await signInByApi(page, email);
    await page.goto("/account/family");
    await page.getByRole("region", { name: "建立家庭" }).getByLabel("家庭名稱").fill("林家");
    await page.getByRole("button", { name: "建立家庭" }).click();
    const addChild = page.getByRole("region", { name: "新增孩子" });
    await addChild.getByLabel("名字或暱稱").fill("小安");
    await addChild.getByLabel("出生年（西元）").fill(String(new Date().getFullYear() - 6));
    await addChild.getByRole("checkbox", { name: /已閱讀並同意/ }).check();
    await addChild.getByRole("button", { name: "同意並新增" }).click();
    await page.getByRole("region", { name: "孩子" }).getByText(/小安（/).waitFor();
    return { page, email, name };
  }

  /** Whether the parent's browser is still signed in: 家庭 names the family only to a signed-in parent of it. */
  const stillSignedIn = async (page: Page) => {
    await page.goto("/account/family");
    await page.locator("main h1").first().waitFor();
    return (await page.getByRole("heading", { name: "林家" }).count()) > 0;
  };

  /** Runs one action of the parent's file with its reason, and waits for its outcome beside it. */
  async function act(page: Page, title: string, reason: string, outcome: RegExp) {
    const form = page.getByRole("form", { name: title });
    await form.getByLabel("原因（會記在安全紀錄）").fill(reason);
    await form.getByRole("button", { name: title }).click();
    await page.getByRole("status").filter({ hasText: outcome }).waitFor();
  }

  for (const [label, javaScriptEnabled] of [["with JavaScript", true], ["without JavaScript", false]] as const) {
    it(`an admin finds a parent, reads the file, locks, unlocks and signs them out; a parent is refused (${label})`, async () => {
      const parent = await parentWithFamily();
      // A parent is never let in: the console answers the site's 404.
      const refused = await parent.page.goto("/admin");
      expect(refused?.status()).toBe(404);
      expect(await parent.page.getByRole("heading", { name: "管理後台" }).count()).toBe(0);

      const admin = await signedInAdmin(javaScriptEnabled);
      await admin.getByLabel("找家長").fill(parent.name);
      await admin.getByRole("button", { name: "搜尋" }).click();
      await admin.getByRole("table", { name: `符合「${parent.name}」的帳號（最多 20 筆）` }).waitFor();
      if (javaScriptEnabled) await expectNoAxeViolations(admin, "console search");
      await admin.getByRole("link", { name: parent.email }).click();
      await admin.getByRole("heading", { name: parent.email }).waitFor();

      const family = admin.getByRole("region", { name: "家庭" });
      await family.getByText("家庭「林家」，這個帳號的身分：擁有者。").waitFor();
      expect(await family.getByText("小安").count()).toBe(1);
      const record = admin.getByRole("region", { name: "安全紀錄（最近 200 筆）" });
      expect(await record.getByRole("row").filter({ hasText: "登入" }).count()).toBeGreaterThanOrEqual(1);
      if (javaScriptEnabled) await expectNoAxeViolations(admin, "parent's file");

      await act(admin, "停用帳號", "家長來信說有人登入他的帳號", /帳號已停用，並結束 \d+ 個登入/);
      expect(await stillSignedIn(parent.page)).toBe(false);
      expect(await signInAnswer(parent.email, password)).toMatchObject({ status: 403, body: { code: "auth/user-disabled" } });
      await admin.getByRole("region", { name: "安全紀錄（最近 200 筆）" }).getByText("（原因：家長來信說有人登入他的帳號）").waitFor();

      await act(admin, "恢復帳號", "家長已確認身分", /帳號已恢復，家長可以再次登入/);
      expect((await signInAnswer(parent.email, password)).status).toBe(200);
      // Signed in again in a browser of their own (this one still carries the cookie of the session the lock ended).
      const again = await browser.newPage({ javaScriptEnabled: false });
      await signInByApi(again, parent.email);
      expect(await stillSignedIn(again)).toBe(true);

      await act(admin, "登出所有裝置", "家長要求登出所有裝置", /已登出所有裝置與 App，共結束 [1-9]\d* 個登入/);
      expect(await stillSignedIn(again)).toBe(false);
    }, 120_000);
  }
});
