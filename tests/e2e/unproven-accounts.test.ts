import { describe, expect, it } from "vitest";
import { newEmail, password, signUp } from "./helpers/accounts";
import { baseURL, familyHeaders, useBrowser } from "./helpers/browser";
import { linkTo, mailTo } from "./helpers/mailbox";

// Pre-account takeover in Chromium (issue 25 item 2): someone signs up with a parent's address in one browser and
// never verifies; the parent signs in with an emailed link in another. The sign-up's browser is signed out, its
// password no longer opens the account, and the parent is told.
describe("an account opened with someone else's address", () => {
  const browser = useBrowser();

  it("is the owner's alone once the owner signs in by an emailed link", async () => {
    const email = newEmail();
    const claimer = await browser.newPage();
    await signUp(claimer, email, "搶先註冊");
    expect(await (await claimer.request.get("/api/auth/me")).json()).toMatchObject({ user: { email, emailVerified: false } });

    const owner = await browser.newPage({ javaScriptEnabled: false });
    await owner.goto("/login/email-link");
    await owner.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await owner.getByRole("button", { name: "寄送登入連結" }).click();
    await owner.goto(linkTo(await mailTo(email, /登入連結/), "/login/email-link"));
    await owner.getByRole("button", { name: "登入" }).click();
    await owner.waitForURL((url) => url.pathname === "/");
    expect(await (await owner.request.get("/api/auth/me")).json()).toMatchObject({ user: { email, emailVerified: true } });

    expect(await (await claimer.request.get("/api/auth/me")).json()).toMatchObject({ user: null });
    const origin = baseURL();
    const retry = await fetch(`${origin}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin, ...familyHeaders() },
      body: JSON.stringify({ email, password }),
    });
    expect(retry.status).toBe(401);
    expect((await mailTo(email, /已確認這個電子郵件是你的/)).text).toContain("所有裝置和 App 也都已登出");
    await claimer.context().close();
    await owner.context().close();
  });
});
