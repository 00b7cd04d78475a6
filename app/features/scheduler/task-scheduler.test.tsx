import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { storageKey, unreadableKey } from "./storage";
import { TaskScheduler } from "./task-scheduler";

const appUrl = "https://app.example.tw";

/** Renders the page (at `address`) and waits until it has read the browser's saved tables. */
async function renderScheduler(address = "/task-scheduler") {
  render(
    <MemoryRouter initialEntries={[address]}>
      <TaskScheduler appUrl={appUrl} />
    </MemoryRouter>,
  );
  await waitFor(() => expect(screen.getByRole("region", { name: "任務表" }).getAttribute("aria-busy")).toBe("false"));
}

function taskNamesInTable() {
  const table = screen.getByRole("table");
  return within(table)
    .queryAllByRole("rowheader")
    .map((cell) => cell.querySelector(".tick-table__name")?.textContent);
}

function savedTable() {
  return JSON.parse(localStorage.getItem(storageKey) ?? "null")?.tables?.[0];
}

describe("TaskScheduler", () => {
  beforeEach(() => localStorage.clear());

  it("adds the template tasks a form sent before the scripts ran to the table saved in the browser, once", async () => {
    const user = userEvent.setup();
    await renderScheduler();
    await user.click(screen.getByRole("button", { name: "加入「刷牙洗臉」" }));
    await user.type(screen.getByLabelText("孩子的名字"), "小美");
    await waitFor(() => expect(savedTable()?.tasks).toHaveLength(1));
    cleanup();

    await renderScheduler("/task-scheduler?show=6-8&task=刷牙洗臉&task=寫完功課");
    expect(screen.getByRole("table", { name: /小美的任務表/ })).toBeTruthy();
    expect(taskNamesInTable()).toEqual(["刷牙洗臉", "寫完功課"]);
    await waitFor(() => expect(savedTable()?.tasks.map((task: { name: string }) => task.name)).toEqual(["刷牙洗臉", "寫完功課"]));
  });

  it("builds a table from a template, ticks cells and saves them in the browser", async () => {
    const user = userEvent.setup();
    await renderScheduler();
    await user.click(screen.getByRole("button", { name: "3–5 歲" }));
    await user.click(screen.getByRole("button", { name: "全部加入（3–5 歲）" }));
    await user.type(screen.getByLabelText("孩子的名字"), "小美");

    expect(screen.getByRole("table", { name: /小美的任務表/ })).toBeTruthy();
    expect(taskNamesInTable()).toHaveLength(8);
    await user.click(screen.getByRole("checkbox", { name: "星期一 起床刷牙 完成" }));
    await user.click(screen.getByRole("checkbox", { name: "星期日 洗澎澎 完成" }));

    expect(screen.getByText(/本週星星：2 \/ 56 顆/)).toBeTruthy();
    expect(savedTable()).toMatchObject({ childName: "小美" });
    expect(savedTable().ticks).toHaveLength(2);
  });

  it("adds, edits, reorders from the keyboard and removes a task", async () => {
    const user = userEvent.setup();
    await renderScheduler();
    const addForm = screen.getByRole("form", { name: "新增任務" });
    for (const name of ["刷牙", "收玩具"]) {
      await user.type(within(addForm).getByLabelText("任務名稱"), name);
      await user.click(within(addForm).getByRole("button", { name: "新增任務" }));
    }
    expect(taskNamesInTable()).toEqual(["刷牙", "收玩具"]);

    screen.getByRole("button", { name: "下移「刷牙」" }).focus();
    await user.keyboard("{Enter}");
    expect(taskNamesInTable()).toEqual(["收玩具", "刷牙"]);
    // Focus stays with the moved task: the next key press moves it back up.
    expect(document.activeElement?.getAttribute("aria-label")).toBe("上移「刷牙」");

    await user.click(screen.getByRole("button", { name: "編輯「收玩具」" }));
    const editForm = screen.getByRole("form", { name: "修改任務" });
    await user.clear(within(editForm).getByLabelText("任務名稱"));
    await user.type(within(editForm).getByLabelText("任務名稱"), "玩具收好");
    await user.click(within(editForm).getByLabelText("星期六"));
    await user.click(within(editForm).getByRole("button", { name: "儲存修改" }));
    expect(taskNamesInTable()).toEqual(["玩具收好", "刷牙"]);
    expect(document.activeElement?.getAttribute("aria-label")).toBe("編輯「玩具收好」");
    expect(screen.queryByRole("checkbox", { name: "星期六 玩具收好 完成" })).toBeNull();

    await user.click(screen.getByRole("button", { name: "刪除「刷牙」" }));
    expect(taskNamesInTable()).toEqual(["玩具收好"]);
    // Focus moves to the neighbouring task instead of falling back to the top of the page.
    expect(document.activeElement?.getAttribute("aria-label")).toBe("刪除「玩具收好」");
  });

  it("asks for a name and at least one day before adding", async () => {
    const user = userEvent.setup();
    await renderScheduler();
    const addForm = screen.getByRole("form", { name: "新增任務" });
    await user.click(within(addForm).getByRole("button", { name: "新增任務" }));
    expect(screen.getByRole("alert").textContent).toBe("請寫下任務名稱。");
    await user.type(within(addForm).getByLabelText("任務名稱"), "刷牙");
    for (const day of ["一", "二", "三", "四", "五", "六", "日"]) await user.click(within(addForm).getByLabelText(`星期${day}`));
    await user.click(within(addForm).getByRole("button", { name: "新增任務" }));
    expect(screen.getByRole("alert").textContent).toBe("請至少選一天。");
    expect(within(screen.getByRole("table")).queryAllByRole("rowheader")).toHaveLength(0);
  });

  it("keeps one table per child, each with its own tasks and ticks", async () => {
    const user = userEvent.setup();
    await renderScheduler();
    await user.type(screen.getByLabelText("孩子的名字"), "哥哥");
    await user.click(screen.getByRole("button", { name: "加入「刷牙洗臉」" }));
    await user.click(screen.getByRole("checkbox", { name: "星期二 刷牙洗臉 完成" }));

    await user.click(screen.getByRole("button", { name: "＋ 再做一張表" }));
    await user.type(screen.getByLabelText("孩子的名字"), "妹妹");
    expect(screen.getByRole("table", { name: /妹妹的任務表/ })).toBeTruthy();
    expect(taskNamesInTable()).toEqual([]);

    await user.click(screen.getByRole("button", { name: "哥哥的任務表" }));
    expect(taskNamesInTable()).toEqual(["刷牙洗臉"]);
    expect((screen.getByRole("checkbox", { name: "星期二 刷牙洗臉 完成" }) as HTMLInputElement).checked).toBe(true);
    const saved = JSON.parse(localStorage.getItem(storageKey) ?? "null");
    expect(saved.tables.map((table: { childName: string }) => table.childName)).toEqual(["哥哥", "妹妹"]);
  });

  it("tells the parent kindly when saved data cannot be read, and keeps it aside", async () => {
    localStorage.setItem(storageKey, "{broken");
    await renderScheduler();
    expect(screen.getByRole("alert").textContent).toContain("讀不出來");
    expect(localStorage.getItem(unreadableKey)).toBe("{broken");
    expect(screen.getByRole("table", { name: /我的任務表/ })).toBeTruthy();
  });

  it("links to the app in a new tab, once", async () => {
    await renderScheduler();
    const link = screen.getByRole("link", { name: /立即開始/ });
    expect(link.getAttribute("href")).toBe(appUrl);
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toBe("noopener");
    expect(screen.getAllByRole("link")).toHaveLength(1);
  });
});

/** The server's HTML is what a browser without JavaScript keeps: its script-only buttons must not look usable. */
describe("TaskScheduler without JavaScript", () => {
  it("disables 列印, 新增任務 and the backup buttons and says why", async () => {
    const { renderToString } = await import("react-dom/server");
    const html = renderToString(
      <MemoryRouter initialEntries={["/task-scheduler"]}>
        <TaskScheduler appUrl={appUrl} />
      </MemoryRouter>,
    );
    const page = new DOMParser().parseFromString(html, "text/html");
    const button = (name: string) => [...page.querySelectorAll("button")].find((candidate) => candidate.textContent?.trim() === name);
    for (const name of ["列印", "開始新的一週", "刪除這張表", "新增任務", "匯出備份", "匯入備份"]) {
      expect(button(name), name).toBeDefined();
      expect(button(name)?.hasAttribute("disabled"), name).toBe(true);
    }
    const explained = [...page.querySelectorAll("noscript")].map((element) => element.textContent ?? "").join("\n");
    expect(explained).toContain("請用瀏覽器選單的「列印」印出這張表");
    expect(explained).toContain("自己新增任務需要開啟 JavaScript");
    expect(explained).toContain("匯出與匯入備份需要開啟 JavaScript");
  });
});
