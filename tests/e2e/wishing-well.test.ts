import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { createVerifiedAccount, newEmail, password, signUp, submitSignUp } from "./helpers/accounts";
import { baseURL, expectNoAxeViolations, openPage, serverDataDir, useBrowser } from "./helpers/browser";
import { linkTo, mailTo } from "./helpers/mailbox";

/** `npm run user:role` against the data of the server under test. */
async function makeEditor(email: string) {
  await promisify(execFile)(process.execPath, ["scripts/user-role.mjs", email, "editor"], {
    env: { ...process.env, DATA_DIR: serverDataDir(), DATABASE_URL: process.env.E2E_DATABASE_URL ?? "", REDIS_URL: "" },
  });
}

/** A guest session through the sign-in API, for pages opened without JavaScript (the sign-in screens need it). */
async function signInAsGuestByApi(page: Page) {
  const answer = await page.request.post("/api/auth/sign-in/anonymous", { headers: { origin: baseURL() }, data: {} });
  expect(answer.status()).toBe(200);
}

/** Signs a verified account in through the sign-in API, for pages opened without JavaScript. */
async function signInByApi(page: Page, email: string) {
  const answer = await page.request.post("/api/auth/sign-in/email", { headers: { origin: baseURL() }, data: { email, password } });
  expect(answer.status()).toBe(200);
}

async function verifyEmail(page: Page, email: string) {
  await page.goto(linkTo(await mailTo(email, /驗證/), "/verify-email"));
  await page.getByText("已完成驗證").waitFor();
}

async function verifiedEditor(page: Page) {
  const email = newEmail();
  await signUp(page, email, "團隊小編");
  await verifyEmail(page, email);
  await makeEditor(email);
  return email;
}

const voteButton = (page: Page) => page.locator(".wish-detail .vote-button");

// Whole stories with several browsers each: longer than the project's per-test default.
const storyTimeout = 240_000;

describe("wishing well in the browser", () => {
  const browser = useBrowser();

  it("with JavaScript: a guest wishes, another guest upgrades and verifies to vote, the author upgrades and keeps it, an editor marks it 規劃中 and the author is mailed", async () => {
    const author = await browser.newPage();
    await openPage(author, "/login?redirectTo=/wishing-well");
    await author.getByRole("button", { name: "以訪客身分試用" }).click();
    await author.waitForURL((url) => url.pathname === "/wishing-well");
    await author.getByRole("heading", { name: "許下願望" }).waitFor();
    await expectNoAxeViolations(author);

    const title = `希望可以匯出點數紀錄 ${Date.now() % 100000}`;
    await author.getByLabel("願望標題").fill(title);
    await author.getByLabel("說明（選填）").fill("想把孩子一個月的點數印出來貼在冰箱上。");
    await author.getByRole("button", { name: "送出願望" }).click();
    await author.waitForURL(/\/wishing-well\/[0-9a-f-]{36}$/);
    const wishPath = new URL(author.url()).pathname;
    await author.getByRole("heading", { level: 1, name: title }).waitFor();
    expect(await voteButton(author).getAttribute("aria-label")).toBe("你的願望，目前 0 票");

    // While another parent types a similar title, the existing wish is offered.
    const voter = await browser.newPage();
    await openPage(voter, "/login?redirectTo=/wishing-well");
    await voter.getByRole("button", { name: "以訪客身分試用" }).click();
    await voter.waitForURL((url) => url.pathname === "/wishing-well");
    await voter.getByLabel("願望標題").fill("匯出點數");
    await voter.locator(".wish-similar").getByRole("link", { name: title }).click();
    await voter.waitForURL(`**${wishPath}`);

    // A guest does not vote (one person could make guest after guest): it is shown the way up instead.
    expect(await voter.getByRole("button", { name: /投票給/ }).count()).toBe(0);
    // Every wish on the page (the suite's other wishes too) offers the same way up: the first one is taken.
    await voter.getByRole("link", { name: "升級成正式帳號就能投票" }).first().click();
    await voter.getByRole("heading", { name: "升級訪客帳號" }).waitFor();
    const voterEmail = newEmail();
    await submitSignUp(voter, voterEmail, "小美媽媽");
    // Upgraded but not verified yet: the way to verify.
    await openPage(voter, wishPath);
    expect(await voter.getByRole("button", { name: /投票給/ }).count()).toBe(0);
    await voter.getByRole("link", { name: "驗證電子郵件後就能投票" }).waitFor();
    await verifyEmail(voter, voterEmail);
    await openPage(voter, wishPath);

    // The vote shows at once, and stays after a reload.
    await voter.getByRole("button", { name: `投票給「${title}」（目前 0 票）` }).click();
    await voter.getByRole("button", { name: `收回投給「${title}」（目前 1 票）` }).waitFor();
    await voter.reload();
    await voter.getByRole("button", { name: `收回投給「${title}」（目前 1 票）` }).waitFor();

    // The guest upgrades in place and still owns the wish.
    const email = newEmail();
    await openPage(author, "/signup");
    await author.getByRole("heading", { name: "升級訪客帳號" }).waitFor();
    await submitSignUp(author, email, "小安爸爸");
    await verifyEmail(author, email);
    await openPage(author, wishPath);
    await author.getByRole("heading", { name: "你的願望" }).waitFor();
    await author.locator("summary", { hasText: "刪除這個願望" }).waitFor();
    expect(await voteButton(author).getAttribute("aria-label")).toBe("你的願望，目前 1 票");

    // An editor marks it 規劃中; the author's mailbox gets the notice, whose unsubscribe link works.
    const editor = await browser.newPage();
    await verifiedEditor(editor);
    await openPage(editor, wishPath);
    await editor.getByLabel("狀態").selectOption({ label: "規劃中" });
    await editor.getByRole("button", { name: "更新狀態" }).click();
    await editor.locator(".wish-detail .wish-status", { hasText: "規劃中" }).waitFor();
    await editor.getByLabel("團隊回覆").fill("已經排進下個月的開發。");
    await editor.getByRole("button", { name: "儲存回覆" }).click();
    await editor.getByText("團隊回覆：已經排進下個月的開發。").waitFor();

    const notice = await mailTo(email, /規劃中/);
    expect(notice.subject).toBe(`【任務小勇士】你的願望「${title}」規劃中`);
    expect(notice.links).toContain(`${baseURL()}${wishPath}`);
    await openPage(author, linkTo(notice, "/wishing-well/unsubscribe"));
    await author.getByRole("button", { name: "取消通知" }).click();
    await author.getByText("已經取消，之後不會再收到許願池的通知信。").waitFor();
  }, storyTimeout);

  it("without JavaScript: every form works as a plain POST (wish, vote and take it back, edit, team status and hide, delete)", async () => {
    const author = await browser.newPage({ javaScriptEnabled: false });
    await signInAsGuestByApi(author);
    await author.goto("/wishing-well");
    const title = `不用 JavaScript 的願望 ${Date.now() % 100000}`;
    await author.getByLabel("願望標題").fill("長".repeat(61));
    await author.getByRole("button", { name: "送出願望" }).click();
    await author.getByText("願望標題最多 60 個字").waitFor();
    await author.getByLabel("願望標題").fill(title);
    await author.getByRole("button", { name: "送出願望" }).click();
    await author.waitForURL(/\/wishing-well\/[0-9a-f-]{36}$/);
    const wishPath = new URL(author.url()).pathname;
    await author.getByLabel("願望標題").fill(`${title}（改）`);
    await author.getByRole("button", { name: "儲存修改" }).click();
    await author.getByRole("heading", { level: 1, name: `${title}（改）` }).waitFor();

    // A guest sees the way up instead of a vote, and a vote it posts anyway is refused.
    const guest = await browser.newPage({ javaScriptEnabled: false });
    await signInAsGuestByApi(guest);
    await guest.goto("/wishing-well");
    expect(await guest.getByRole("button", { name: `投票給「${title}（改）」（目前 0 票）` }).count()).toBe(0);
    expect(await guest.getByRole("link", { name: "升級成正式帳號就能投票" }).count()).toBeGreaterThan(0);
    const refused = await guest.request.post(wishPath, { headers: { origin: baseURL() }, form: { intent: "vote", vote: "add" }, maxRedirects: 0 });
    expect(refused.status()).toBe(403);

    const voterEmail = await createVerifiedAccount(newEmail(), "投票的家長");
    const voter = await browser.newPage({ javaScriptEnabled: false });
    await signInByApi(voter, voterEmail);
    await voter.goto("/wishing-well");
    await voter.getByRole("button", { name: `投票給「${title}（改）」（目前 0 票）` }).click();
    await voter.waitForURL((url) => url.pathname === "/wishing-well");
    await voter.getByRole("button", { name: `收回投給「${title}（改）」（目前 1 票）` }).click();
    // …and votes again: the deletion below must say that the wish's one vote goes with it.
    await voter.getByRole("button", { name: `投票給「${title}（改）」（目前 0 票）` }).click();
    await voter.getByRole("button", { name: `收回投給「${title}（改）」（目前 1 票）` }).waitFor();

    const editorWithScript = await browser.newPage();
    const email = await verifiedEditor(editorWithScript);
    const editor = await browser.newPage({ javaScriptEnabled: false });
    await editor.context().addCookies(await editorWithScript.context().cookies());
    await editor.goto(wishPath);
    await editor.getByLabel("狀態").selectOption({ label: "暫不考慮" });
    await editor.getByRole("button", { name: "更新狀態" }).click();
    await editor.getByText("「暫不考慮」需要寫下原因").waitFor();
    await editor.getByLabel("狀態").selectOption({ label: "暫不考慮" });
    await editor.getByLabel("暫不考慮的原因").fill("目前先專注在孩子端的功能");
    await editor.getByRole("button", { name: "更新狀態" }).click();
    await editor.getByText("暫不考慮的原因：目前先專注在孩子端的功能").waitFor();
    await editor.getByRole("button", { name: "隱藏這個願望" }).click();
    await editor.getByText("這個願望已被團隊隱藏，只有團隊看得到。").waitFor();
    expect((await voter.goto(wishPath))?.status()).toBe(404);
    await editor.getByRole("button", { name: "重新顯示" }).click();
    expect((await voter.goto(wishPath))?.status()).toBe(200);
    expect(email).toContain("@");

    await author.goto(wishPath);
    // It asks first, and says what goes with the wish.
    await author.locator("summary", { hasText: "刪除這個願望" }).click();
    await author.getByText("確定要刪除嗎？願望和它的 1 票會一起刪除，無法復原。").waitFor();
    await author.getByRole("button", { name: "確定刪除" }).click();
    await author.waitForURL("**/wishing-well?deleted=1");
    await author.getByText("你的願望已經刪除。").waitFor();
    expect((await author.goto(wishPath))?.status()).toBe(404);
  }, storyTimeout);

  it("shows a visitor the board and a sign-in link instead of the form, and a wish's Open Graph tags", async () => {
    const guest = await browser.newPage();
    await signInAsGuestByApi(guest);
    const title = `分享到 LINE 的願望 ${Date.now() % 100000}`;
    const made = await guest.request.post("/wishing-well", { headers: { origin: baseURL() }, form: { intent: "create", title }, maxRedirects: 0 });
    const wishPath = new URL(made.headers().location!, baseURL()).pathname;

    const page = await browser.newPage({ javaScriptEnabled: false });
    await page.goto("/wishing-well?order=votes&status=open");
    await page.getByRole("link", { name: "登入後許願" }).waitFor();
    expect(await page.getByLabel("願望標題").count()).toBe(0);
    await page.getByRole("link", { name: title, exact: true }).click();
    await page.waitForURL(`**${wishPath}`);
    expect(await page.locator('meta[property="og:url"]').getAttribute("content")).toBe(`${baseURL()}${wishPath}`);
    expect(await page.locator('meta[property="og:title"]').getAttribute("content")).toBe(`${title}｜許願池 | 任務小勇士`);
    expect(await page.locator('meta[property="og:description"]').getAttribute("content")).toBe("【新願望・0 票】一起替這個願望投一票。");
  });

  it("shows titles and texts as text: none of a list of script payloads runs, with JavaScript on or off", async () => {
    const payloads = [
      `<script>window.__xss=1</script>`,
      `<img src=x onerror="window.__xss=1">`,
      `"><svg onload=window.__xss=1>`,
      `</textarea><script>window.__xss=1</script>`,
      `javascript:window.__xss=1`,
      `[點我](javascript:window.__xss=1)`,
      `<a href="javascript:window.__xss=1">點我</a>`,
      `<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>`,
      `{{constructor.constructor('window.__xss=1')()}}`,
      `https://evil.example/?q=<b>粗</b>`,
    ];
    const author = await browser.newPage();
    await openPage(author, "/login?redirectTo=/wishing-well");
    await author.getByRole("button", { name: "以訪客身分試用" }).click();
    await author.waitForURL((url) => url.pathname === "/wishing-well");
    await author.getByRole("heading", { name: "許下願望" }).waitFor();
    const paths: string[] = [];
    for (let index = 0; index < payloads.length; index += 2) {
      const answer = await author.request.post("/wishing-well", {
        headers: { origin: baseURL() },
        form: { intent: "create", title: payloads[index]!, body: `${payloads[index + 1]}\n${payloads[index]}` },
        maxRedirects: 0,
      });
      expect(answer.status()).toBe(303);
      paths.push(new URL(answer.headers().location!, baseURL()).pathname);
    }

    for (const javaScriptEnabled of [true, false]) {
      const page = await browser.newPage({ javaScriptEnabled });
      const dialogs: string[] = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto("/wishing-well");
      for (const path of paths) await page.goto(path);
      await page.goto("/wishing-well");
      if (javaScriptEnabled) {
        expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
      }
      const shown = await page.locator(".wish-card").allInnerTexts();
      for (const payload of payloads) expect(shown.join("\n")).toContain(payload);
      expect(await page.locator(".wish-card img, .wish-card svg, .wish-card iframe, .wish-card script, .wish-text a").count()).toBe(0);
      expect(dialogs).toEqual([]);
    }
    // The author's own edit form shows the payloads as field values, not markup.
    await author.goto(paths[1]!);
    expect(await author.getByLabel("說明（選填）").inputValue()).toContain(payloads[3]);
    expect(await author.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  }, storyTimeout);
});
