import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createVerifiedAccount, newEmail, signInHere, signInByApi } from "./helpers/accounts";
import * as oidc from "openid-client";
import { baseURL, expectNoAxeViolations, mobileViewport, openPage, saveScreenshot, useBrowser } from "./helpers/browser";
import { e2eApps } from "./helpers/apps";
import { discoverProvider, refresh } from "~tests/fixtures/reference-client";
import { linkTo, mailTo } from "./helpers/mailbox";

// Two parents in two browsers (PRODUCT §5, Families): one makes the family, adds a child with consent and invites the
// other by mail, all on a 375 px phone without JavaScript; the other opens the mailed link, signs in and accepts;
// either sees and cancels open invitations; a child's tablet on 帳號安全. Screenshots go to SCREENSHOT_DIR
// (`npm run screenshots:family` writes docs/screenshots/family/), else test-results/screenshots/family/.

const familyPath = "/account/family";

const section = (page: Page, heading: string) => page.getByRole("region", { name: heading });

describe("families", () => {
  const browser = useBrowser();

  it("a parent makes a family, adds a child with consent and invites a co-parent without JavaScript; the co-parent accepts", async () => {
    const first = await browser.newPage({ javaScriptEnabled: false, viewport: mobileViewport });
    const firstEmail = await createVerifiedAccount(newEmail(), "小明媽媽");
    await signInByApi(first, firstEmail);
    await first.goto(familyPath);

    await section(first, "建立家庭").getByLabel("家庭名稱").fill("王家");
    await first.getByRole("button", { name: "建立家庭" }).click();
    await first.getByRole("heading", { name: "王家" }).waitFor();
    expect(await first.getByText("你的身分：擁有者").count()).toBe(1);

    const addChild = section(first, "新增孩子");
    await addChild.getByLabel("名字或暱稱").fill("小明");
    await addChild.getByLabel("出生年（西元）").fill(String(new Date().getFullYear() - 7));
    await addChild.getByRole("radio", { name: "貓熊" }).check();
    // Without the box the server refuses (the browser's own check is off without JavaScript only for `required`).
    await addChild.getByRole("checkbox", { name: /已閱讀並同意/ }).check();
    await saveScreenshot(first, "01-add-child-with-consent", { fullPage: true, folder: "family" });
    await addChild.getByRole("button", { name: "同意並新增" }).click();
    await section(first, "孩子").getByText(/小明（\d{4} 年生）/).waitFor();

    const secondEmail = newEmail();
    const invite = section(first, "邀請另一位家長");
    await invite.getByLabel(/對方的電子郵件/).fill(secondEmail);
    await invite.getByRole("button", { name: "建立邀請連結" }).click();
    await invite.getByText(`邀請已寄到 ${secondEmail}`).waitFor();
    const shownLink = await invite.getByLabel("邀請連結").inputValue();
    expect(await invite.getByRole("link", { name: "用 LINE 傳送" }).getAttribute("href")).toContain(encodeURIComponent(shownLink));
    await section(first, "尚未接受的邀請").getByText(secondEmail).waitFor();
    await saveScreenshot(first, "02-invitation-link", { fullPage: true, folder: "family" });

    // The co-parent: an account made elsewhere, the mailed link in another browser.
    const second = await browser.newPage({ viewport: mobileViewport });
    await createVerifiedAccount(secondEmail, "小明爸爸");
    const joinLink = linkTo(await mailTo(secondEmail, /邀請你一起管理家庭/), "/account/family/join");
    expect(shownLink).toContain(joinLink);
    await openPage(second, joinLink);
    await second.getByRole("heading", { name: "「小明媽媽」邀請你加入家庭「王家」" }).waitFor();
    await saveScreenshot(second, "03-invitation-signed-out", { fullPage: true, folder: "family" });
    await second.getByRole("link", { name: "登入" }).last().click();
    await signInHere(second, secondEmail, joinLink);
    await second.getByRole("button", { name: "接受邀請" }).click();
    await second.waitForURL(`**${familyPath}?done=joined`);
    await second.getByText("你已加入家庭。").waitFor();
    expect(await section(second, "家長").getByRole("listitem").count()).toBe(2);
    expect(await section(second, "孩子").getByText(/小明（/).count()).toBe(1);
    await expectNoAxeViolations(second, "family screen");
    await saveScreenshot(second, "04-family-two-parents", { fullPage: true, folder: "family" });

    // Every parent hears of the join.
    for (const email of [firstEmail, secondEmail]) expect((await mailTo(email, /加入了家庭/)).text).toContain("「小明爸爸」以家長身分加入了家庭「王家」");

    // The first parent's invitation link is used up; a new one made by the first parent is cancelled by the second.
    // (A reload would send the last form again: open the page afresh.)
    await first.goto(familyPath);
    expect(await section(first, "家長").getByRole("listitem").count()).toBe(2);
    await section(first, "邀請另一位家長").getByRole("button", { name: "建立邀請連結" }).click();
    await section(first, "邀請另一位家長").getByText("邀請連結已建立").waitFor();
    await openPage(second, familyPath);
    const open = section(second, "尚未接受的邀請");
    await open.getByText("用連結分享的邀請").waitFor();
    await open.getByRole("button", { name: "取消邀請" }).click();
    await section(second, "尚未接受的邀請").getByText("邀請已取消").waitFor();
    await section(second, "尚未接受的邀請").getByText("目前沒有尚未接受的邀請。").waitFor({ timeout: 10_000 });
    expect(await section(second, "尚未接受的邀請").getByRole("listitem").count()).toBe(0);
    await openPage(second, joinLink);
    await second.getByText("這個邀請連結已經有人用過了").waitFor();
  });

  it("refuses a child without the parent's consent and says why, in the form", async () => {
    const page = await browser.newPage({ viewport: mobileViewport });
    const email = await createVerifiedAccount(newEmail(), "陳媽媽");
    await signInByApi(page, email);
    await openPage(page, familyPath);
    await section(page, "建立家庭").getByLabel("家庭名稱").fill("陳家");
    await page.getByRole("button", { name: "建立家庭" }).click();
    const addChild = section(page, "新增孩子");
    await addChild.getByLabel("名字或暱稱").fill("小華");
    await addChild.getByLabel("出生年（西元）").fill("1990");
    // Skip the browser's own checks, as a hand-made request would.
    await page.evaluate(() => document.querySelectorAll("form").forEach((form) => form.setAttribute("novalidate", "")));
    await addChild.getByRole("button", { name: "同意並新增" }).click();
    await section(page, "新增孩子").getByText("請先閱讀並同意兒童個人資料告知事項").waitFor();
    expect(await section(page, "新增孩子").getByText(/出生年需介於/).count()).toBe(1);
    expect(await section(page, "新增孩子").getByLabel("名字或暱稱").inputValue()).toBe("小華");
    expect(await section(page, "孩子").getByText("還沒有孩子的資料。").count()).toBe(1);
  });

  it("lists a child's tablet on 帳號安全 at 375 px, and ending it there stops the tablet's refresh", async () => {
    const page = await browser.newPage({ viewport: mobileViewport });
    const email = await createVerifiedAccount(newEmail(), "林媽媽");
    await signInByApi(page, email);
    await openPage(page, familyPath);
    await section(page, "建立家庭").getByLabel("家庭名稱").fill("林家");
    await page.getByRole("button", { name: "建立家庭" }).click();
    const addChild = section(page, "新增孩子");
    await addChild.getByLabel("名字或暱稱").fill("小安");
    await addChild.getByLabel("出生年（西元）").fill(String(new Date().getFullYear() - 6));
    await addChild.getByRole("checkbox", { name: /已閱讀並同意/ }).check();
    await addChild.getByRole("button", { name: "同意並新增" }).click();
    await section(page, "孩子").getByText(/小安（\d{4} 年生）/).waitFor();

    // The tablet asks for a code, as openid-client does; the parent opens its QR code's address and approves.
    const tablet = await discoverProvider({ issuer: baseURL(), clientId: e2eApps.tablet.client_id });
    const started = await oidc.initiateDeviceAuthorization(tablet, { scope: "openid profile offline_access family" });
    await page.goto(started.verification_uri_complete!);
    await page.getByRole("radio", { name: /小安/ }).check();
    await page.getByRole("button", { name: "允許這台平板" }).click();
    await page.getByText("「小安」的平板已加入家庭").waitFor();
    const tokens = await oidc.pollDeviceAuthorizationGrant(tablet, started);

    await page.getByRole("link", { name: "到「帳號安全」查看" }).click();
    await page.waitForURL("**/account/security");
    const devices = section(page, "孩子的平板");
    await devices.getByText("小安的平板・任務小勇士平板", { exact: true }).waitFor();
    // The approving parent also sees it among their own sign-ins.
    await page.getByText("小安的平板・任務小勇士平板（App）", { exact: true }).waitFor();
    expect(await devices.getByText(/林媽媽 在 .* 允許/).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(mobileViewport.width);
    await expectNoAxeViolations(page, "account security with a child's tablet");
    await saveScreenshot(page, "05-child-tablet-on-account-security", { fullPage: true, folder: "family" });
    const renewed = await refresh(tablet, tokens.refresh_token!);

    page.once("dialog", (dialog) => {
      expect(dialog.message()).toBe("確定要結束「小安」這台平板的登入嗎？");
      void dialog.accept();
    });
    await devices.getByRole("button", { name: "結束這台平板的登入" }).click();
    await page.getByText("小安的平板・任務小勇士平板", { exact: true }).waitFor({ state: "detached" });
    expect(await page.getByText("小安的平板・任務小勇士平板（App）", { exact: true }).count()).toBe(0);
    await expect(refresh(tablet, renewed.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  }, 60_000);
});
