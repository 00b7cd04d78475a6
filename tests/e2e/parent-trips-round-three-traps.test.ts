import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { baseURL, mobileViewport, openPage, useBrowser } from "./helpers/browser";
import { ageSessions, createVerifiedAccount, newEmail, password, signInByApi } from "./helpers/accounts";

// Small traps a parent met, round three (issue 41.4 and 41.5), on a 375 px phone: what leaving takes when you are the
// only parent, the tablet's address in full, a link drawn as a button with its words centred, and backup codes whose
// numbers stay in their own boxes.

const section = (page: Page, heading: string) => page.getByRole("region", { name: heading });

/** How far the middle of an element's words sits from the middle of its box, in CSS pixels. */
async function offCentre(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const words = range.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    return Math.abs(words.left + words.width / 2 - (box.left + box.width / 2));
  });
}

describe("small traps, round three", () => {
  const browser = useBrowser();

  /** Signed in through the sign-in API: each caller opens the screen it is about. */
  async function signedIn(name: string) {
    const email = await createVerifiedAccount(newEmail(), name);
    const page = await browser.newPage({ viewport: mobileViewport });
    await signInByApi(page, email);
    return { page, email };
  }

  it("tells the only parent what leaving takes, on 家庭 and in the confirmation, and names the tablet's address in full", async () => {
    const { page } = await signedIn("林媽媽");
    await openPage(page, "/account/family");
    await section(page, "建立家庭").getByLabel("家庭名稱").fill("林家");
    await page.getByRole("button", { name: "建立家庭" }).click();
    await page.getByRole("heading", { name: "林家" }).waitFor();
    const addChild = section(page, "新增孩子");
    await addChild.getByLabel("名字或暱稱").fill("小禾");
    await addChild.getByLabel("出生年（西元）").fill(String(new Date().getFullYear() - 6));
    await addChild.getByRole("radio", { name: "獅子" }).check();
    await addChild.getByRole("checkbox", { name: /已閱讀並同意/ }).check();
    await addChild.getByRole("button", { name: "同意並新增" }).click();
    await section(page, "孩子").getByText(/小禾（\d{4} 年生）/).waitFor();

    const leave = section(page, "離開或刪除家庭");
    await leave.getByText("你是這個家庭唯一的家長。離開後，下面這些會一起刪除，無法復原：").waitFor();
    expect(await leave.getByRole("listitem").allInnerTexts()).toEqual(["家庭「林家」", "1 位孩子的資料（小禾）和他們的同意紀錄"]);
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await leave.getByRole("button", { name: "離開家庭" }).click();
    await expect.poll(() => asked).toEqual(["確定要離開家庭嗎？你是唯一的家長：家庭「林家」、1 位孩子的資料（小禾）和他們的同意紀錄會一起刪除，無法復原。"]);
    // Dismissed: nothing went.
    await page.getByRole("heading", { name: "林家" }).waitFor();

    // No tablet yet: where to type its code is the full address, not 「到 /device 輸入」.
    const tablets = section(page, "孩子的平板");
    await tablets.getByText(`${baseURL()}/device`, { exact: true }).waitFor();
    expect(await tablets.innerText()).not.toContain("到 /device");
    await page.context().close();
  });

  it("centres the words of 稍後再驗證 and 確認身分, links drawn as buttons", async () => {
    const page = await browser.newPage({ viewport: mobileViewport });
    await openPage(page, "/email-verification");
    const later = page.getByRole("link", { name: "稍後再驗證" });
    expect(await offCentre(later)).toBeLessThanOrEqual(1);
    await page.context().close();

    // 確認身分 is offered beside a change refused for an old sign-in: an email change past the 10 minutes, whose
    // typed address comes back with the parent after confirming.
    const { page: account, email } = await signedIn("林爸爸");
    await ageSessions(email);
    await openPage(account, "/account");
    await account.getByLabel("新的電子郵件").fill("lin-new@example.tw");
    await account.getByRole("button", { name: "寄送確認信" }).click();
    const confirm = account.getByRole("link", { name: "確認身分" });
    await confirm.waitFor();
    expect(await offCentre(confirm)).toBeLessThanOrEqual(1);
    await confirm.click();
    await account.getByLabel("密碼").fill(password);
    await account.getByRole("button", { name: "確認", exact: true }).click();
    await account.waitForURL((url) => url.pathname === "/account");
    expect(await account.getByLabel("新的電子郵件").inputValue()).toBe("lin-new@example.tw");
    await account.context().close();
  });

  it("keeps each backup code's number inside its own box at 375 px, the tenth beside the ninth", async () => {
    const { page } = await signedIn("林阿姨");
    await openPage(page, "/account/two-step");
    await page.getByLabel("目前的密碼").fill(password);
    await page.getByRole("button", { name: "開始設定" }).click();
    const items = page.locator(".two-step-codes li");
    await items.nth(9).waitFor();
    const boxes = await items.evaluateAll((elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        const code = element.querySelector("code")!.getBoundingClientRect();
        const number = getComputedStyle(element, "::before");
        return { left: box.left, right: box.right, top: box.top, bottom: box.bottom, codeLeft: code.left, codeRight: code.right, number: number.content, overflows: element.scrollWidth > element.clientWidth };
      }),
    );
    expect(boxes).toHaveLength(10);
    for (const [index, box] of boxes.entries()) {
      // The number is drawn inside the item (before its code), and nothing spills out of it.
      expect(box.number, `code ${index + 1}`).toContain("counter(");
      expect(box.codeLeft - box.left, `code ${index + 1}`).toBeGreaterThanOrEqual(24);
      expect(box.overflows, `code ${index + 1}`).toBe(false);
      for (const other of boxes.slice(index + 1)) {
        const apart = box.right <= other.left || other.right <= box.left || box.bottom <= other.top || other.bottom <= box.top;
        expect(apart, `code ${index + 1} overlaps another`).toBe(true);
      }
    }
    await page.context().close();
  });
});
