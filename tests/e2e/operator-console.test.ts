import { describe, expect, it } from "vitest";
import { createVerifiedAccount, signInTo } from "./helpers/accounts";
import { baseURL, expectNoAxeViolations, useBrowser } from "./helpers/browser";

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
});
