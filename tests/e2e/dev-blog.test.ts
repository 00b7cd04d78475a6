import type { Page } from "playwright-core";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { staleMessage } from "~/features/dev-blog/editor-messages";
import { createVerifiedAccount, newEmail, signInHere } from "./helpers/accounts";
import { baseURL, openPage, useBrowser, waitForHydration } from "./helpers/browser";
import { runOperatorScript } from "./helpers/operator";

/** Makes `email` an editor the documented way: `npm run user:role -- <email> editor` on the server's data. */
function makeEditor(email: string) {
  const result = runOperatorScript("scripts/user-role.mjs", [email, "editor"]);
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
}

const pngOf = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#4a6bff" } }).png().toBuffer();

/** A page that fails the test if any script of a payload runs: payloads set window.__xss or open a dialog. */
async function guard(page: Page) {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return {
    async expectNothingRan() {
      expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
      const injected = await page.evaluate(
        () =>
          document.querySelectorAll(
            'main [onerror], main [onload], main [onmouseover], main [onclick], main iframe, main script, main svg, main a[href^="javascript:" i], main a[href^="data:" i], main img[src^="javascript:" i]',
          ).length,
      );
      expect(injected).toBe(0);
      expect(dialogs).toEqual([]);
    },
  };
}

describe("developer blog", () => {
  const browser = useBrowser();
  let editorEmail = "";

  beforeAll(async () => {
    const page = await browser.newPage();
    editorEmail = await createVerifiedAccount(newEmail(), "小編");
    await page.context().close();
    makeEditor(editorEmail);
  });

  /** A page signed in as the editor, on the create screen (through the visitor's sign-in redirect). */
  async function editorOnCreate() {
    const page = await browser.newPage();
    await page.goto("/dev-blog/create");
    await waitForHydration(page);
    expect(new URL(page.url()).pathname).toBe("/login");
    await signInHere(page, editorEmail, "/dev-blog/create");
    await page.getByRole("heading", { name: "撰寫開發日誌" }).waitFor();
    return page;
  }

  it("sends a visitor who opens the editor to sign in, with the way back in the address", async () => {
    const answer = await fetch(`${baseURL()}/dev-blog/create`, { redirect: "manual" });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/login?redirectTo=%2Fdev-blog%2Fcreate");
    const post = await fetch(`${baseURL()}/dev-blog/create`, { method: "POST", redirect: "manual", body: new URLSearchParams({ intent: "save", title: "x" }) });
    expect(post.status).toBe(302);
  });

  it("lets an editor write a post with an uploaded image, preview it, publish it, and a visitor read it", { timeout: 120_000 }, async () => {
    const page = await editorOnCreate();
    const title = `第一次上線的心得 ${Date.now()}`;
    await page.getByLabel("標題").fill(title);
    await page.getByLabel("摘要").fill("我們怎麼把網站搬上線。");
    await page.getByLabel("標籤").fill("上線, 維運");
    await page.getByLabel("內文（Markdown）").fill("## 準備\n\n先把[部署文件](https://example.org/deploy)寫好。\n\n");
    await page.getByLabel("插入圖片：").setInputFiles({ name: "架構圖.png", mimeType: "image/png", buffer: await pngOf(320, 200) });
    await expect.poll(() => page.getByLabel("內文（Markdown）").inputValue(), { timeout: 20_000 }).toMatch(/!\[架構圖\]\(\/v0\/b\/[^)]+\)/);

    const preview = page.locator(".editor-preview");
    await preview.getByRole("heading", { name: "準備" }).waitFor();
    await expect.poll(() => preview.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 20_000 }).toBe(320);
    expect(await preview.getByRole("link", { name: "部署文件" }).getAttribute("rel")).toBe("noopener nofollow ugc");

    await page.getByRole("button", { name: "發表" }).click();
    await page.waitForURL(/\/dev-blog\/[A-Za-z0-9]{20}$/);
    const postPath = new URL(page.url()).pathname;

    const reader = await browser.newPage();
    await openPage(reader, "/dev-blog");
    await reader.getByRole("link", { name: title }).click();
    await reader.waitForURL(`**${postPath}`);
    await reader.getByRole("heading", { level: 1, name: title }).waitFor();
    const image = reader.locator("main .prose img");
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 20_000 }).toBe(320);
    expect(await image.getAttribute("alt")).toBe("架構圖");
    const structured = JSON.parse((await reader.locator('script[type="application/ld+json"]').textContent()) ?? "{}") as Record<string, unknown>;
    expect(structured).toMatchObject({ "@type": "BlogPosting", headline: title, keywords: "上線, 維運" });
    await reader.getByRole("link", { name: "#維運" }).click();
    await reader.waitForURL("**/dev-blog?tag=%E7%B6%AD%E9%81%8B");
    await reader.getByRole("link", { name: title }).waitFor();

    const feed = await (await fetch(`${baseURL()}/dev-blog/feed.xml`)).text();
    expect(feed).toContain(`<title type="html"><![CDATA[${title}]]></title>`);
    const sitemap = await (await fetch(`${baseURL()}/sitemap.xml`)).text();
    expect(sitemap).toContain(`${baseURL()}${postPath}</loc>`);
  });

  it("publishes a body typed just before 發表: its preview, due while the post's screen loads, does not break that screen", { timeout: 120_000 }, async () => {
    const page = await editorOnCreate();
    const errors: string[] = [];
    page.on("console", (message) => void (message.type() === "error" && errors.push(message.text())));
    page.on("pageerror", (error) => errors.push(error.message));
    // The editor's own page load, so the content screens' styles are not here yet: the post's screen waits for them,
    // held below, with the router already at the post's address.
    await page.clock.install();
    await openPage(page, "/dev-blog/create");
    let releaseStyles = () => {};
    const stylesHeld = new Promise<void>((resolve) => (releaseStyles = resolve));
    await page.route(/\/assets\/content-[\w-]{8}\.js$/, async (route) => {
      await stylesHeld;
      await route.continue();
    });
    // The preview waits 400 ms after the last keystroke: time stands still until the post's address is reached.
    await page.clock.pauseAt(Date.now() + 60_000);
    const title = `趕在預覽前發表 ${Date.now()}`;
    await page.getByLabel("標題").fill(title);
    await page.getByLabel("摘要").fill("打完字馬上按發表。");
    await page.getByLabel("內文（Markdown）").fill("> 打完就發表。");
    await page.getByRole("button", { name: "發表" }).click();
    await page.waitForURL(/\/dev-blog\/[A-Za-z0-9]{20}$/);
    expect(await page.locator(".editor-preview").count()).toBe(1);
    await page.clock.runFor(1_000);
    await page.clock.resume();
    releaseStyles();

    await page.getByRole("heading", { level: 1, name: title }).waitFor();
    expect((await page.locator("main .prose blockquote").textContent())?.trim()).toBe("打完就發表。");
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("keeps drafts to editors and refuses a stale save without overwriting", { timeout: 120_000 }, async () => {
    const page = await editorOnCreate();
    await page.getByLabel("標題").fill("還在寫的草稿");
    await page.getByRole("button", { name: "儲存草稿" }).click();
    await page.waitForURL(/\/dev-blog\/[A-Za-z0-9]{20}\/edit\?saved=1$/);
    await page.getByText("已儲存。").waitFor();
    const editPath = new URL(page.url()).pathname;
    const postPath = editPath.replace(/\/edit$/, "");

    expect((await fetch(`${baseURL()}${postPath}`)).status).toBe(404);
    const list = await (await fetch(`${baseURL()}/dev-blog`)).text();
    expect(list).not.toContain("還在寫的草稿");
    await openPage(page, postPath);
    await page.getByText("草稿（只有編輯看得到）").waitFor();

    // Two tabs on the same version: the second save is refused and the first one's text stays.
    const second = await page.context().newPage();
    await openPage(second, editPath);
    await openPage(page, editPath);
    await page.getByLabel("標題").fill("第一個分頁的標題");
    await page.getByRole("button", { name: "儲存草稿" }).click();
    await page.getByText("已儲存。").waitFor();
    await second.getByLabel("標題").fill("第二個分頁的標題");
    await second.getByRole("button", { name: "儲存草稿" }).click();
    await second.getByText(staleMessage).waitFor();
    expect(await second.getByLabel("標題").inputValue()).toBe("第二個分頁的標題");
    await openPage(page, postPath);
    await page.getByRole("heading", { level: 1, name: "第一個分頁的標題" }).waitFor();
  });

  it("asks before leaving unsaved changes, keeps unsent work in the browser, and deletes only after a confirmation", { timeout: 120_000 }, async () => {
    const page = await editorOnCreate();
    await page.getByLabel("標題").fill("要刪掉的草稿");
    await page.getByRole("button", { name: "儲存草稿" }).click();
    await page.waitForURL(/\/dev-blog\/[A-Za-z0-9]{20}\/edit\?saved=1$/);
    // The address changes before the edit screen replaces the create screen: typing in between would go to the old one.
    await page.getByText("已儲存。").waitFor();
    const editPath = new URL(page.url()).pathname;
    const postPath = editPath.replace(/\/edit$/, "");
    await page.getByLabel("摘要").fill("還沒送出的摘要");
    await page.getByText("（有尚未儲存的修改）").waitFor();
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.locator(".breadcrumb").getByRole("link", { name: "開發日誌" }).click();
    expect(asked).toEqual(["你有尚未儲存的修改，確定要離開這個頁面嗎？"]);
    expect(new URL(page.url()).pathname).toBe(editPath);
    await page.waitForTimeout(700);
    const later = await page.context().newPage();
    await openPage(later, editPath);
    await later.getByRole("button", { name: "還原這份內容" }).click();
    expect(await later.getByLabel("摘要").inputValue()).toBe("還沒送出的摘要");

    // Delete asks for a confirmation first.
    await later.getByText("刪除這篇文章").click();
    await later.getByRole("button", { name: "確定刪除" }).click();
    await later.waitForURL(/\/dev-blog$/);
    expect((await fetch(`${baseURL()}${postPath}`)).status).toBe(404);
  });

  it("answers a signed-in user who is not an editor with 403, on the screen and on the action", async () => {
    const email = await createVerifiedAccount();
    const page = await browser.newPage();
    await openPage(page, "/login?redirectTo=%2Fdev-blog%2Fcreate");
    await signInHere(page, email, "/dev-blog/create");
    await page.getByRole("heading", { name: "此頁限編輯使用" }).waitFor();
    expect((await page.goto("/dev-blog/create"))?.status()).toBe(403);
    const status = await page.evaluate(async () => {
      const body = new URLSearchParams({ intent: "publish", title: "不該出現", summary: "s", body: "b", tags: "", cover: "" });
      return (await fetch("/dev-blog/create", { method: "POST", body })).status;
    });
    expect(status).toBe(403);
    expect(await (await fetch(`${baseURL()}/dev-blog`)).text()).not.toContain("不該出現");
  });

  it("never runs a script from a post's body, title, summary, tags or an image's file name", { timeout: 120_000 }, async () => {
    const page = await editorOnCreate();
    const watch = await guard(page);
    const payloads = [
      `<script>window.__xss = "script"</script>`,
      `<img src=x onerror="window.__xss='img'">`,
      `<svg onload="window.__xss='svg'"></svg>`,
      `"><script>window.__xss='attr'</script>`,
      `[點我](javascript:window.__xss='link')`,
      `[點我](JaVaScRiPt:window.__xss='link2')`,
      `[點我](&#106;avascript:window.__xss='entity')`,
      `![圖](javascript:window.__xss='src')`,
      `[資料](data:text/html,<script>window.__xss='data'</script>)`,
      `<iframe src="javascript:window.__xss='iframe'"></iframe>`,
      `<a href="javascript:window.__xss='a'">a</a>`,
      `[x](https://example.org" onmouseover="window.__xss='quote')`,
      `</script><script>window.__xss='ld'</script>`,
    ];
    const title = `</script><img src=x onerror="window.__xss='title'">`;
    await page.getByLabel("標題").fill(title);
    await page.getByLabel("摘要").fill(`"><svg onload="window.__xss='summary'">`);
    await page.getByLabel("標籤").fill(`<img src=x onerror=__xss=1>, "><svg/onload=__xss=2>`);
    await page.getByLabel("內文（Markdown）").fill(payloads.join("\n\n"));
    await page.getByLabel("插入圖片：").setInputFiles({ name: `"><img src=x onerror=window.__xss='file'>.png`, mimeType: "image/png", buffer: await pngOf(40, 30) });
    await expect.poll(() => page.getByLabel("內文（Markdown）").inputValue(), { timeout: 20_000 }).toMatch(/!\[[^\]]*\]\(\/v0\/b\//);
    await page.locator(".editor-preview").getByText("window.__xss = \"script\"", { exact: false }).first().waitFor();
    await watch.expectNothingRan();

    await page.getByRole("button", { name: "發表" }).click();
    await page.waitForURL(/\/dev-blog\/[A-Za-z0-9]{20}$/);
    // The post's own screen (the address changes before it replaces the editor).
    await page.locator("main article h1").waitFor();
    const postPath = new URL(page.url()).pathname;

    const reader = await browser.newPage();
    const readerWatch = await guard(reader);
    await openPage(reader, postPath);
    expect(await reader.getByRole("heading", { level: 1 }).textContent()).toBe(title);
    for (const link of await reader.locator("main .prose a").all()) await link.hover();
    await readerWatch.expectNothingRan();
    await openPage(reader, "/dev-blog");
    await readerWatch.expectNothingRan();
    await openPage(reader, `/dev-blog?tag=${encodeURIComponent("<img src=x onerror=__xss=1>")}`);
    await reader.getByRole("link", { name: title }).waitFor();
    await readerWatch.expectNothingRan();
    await openPage(page, `${postPath}/edit`);
    await page.locator(".editor-preview p").first().waitFor();
    await watch.expectNothingRan();

    const feed = await (await fetch(`${baseURL()}/dev-blog/feed.xml`)).text();
    // Content sits in CDATA as HTML: payloads must appear only as escaped text, never as tags.
    expect(feed).not.toMatch(/<(script|svg|iframe)|<img src=x/i);
  });
});
