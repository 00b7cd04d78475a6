import { describe, expect, it } from "vitest";
import { backupFileName, backupText, importBackup } from "./backup";
import type { ChildTable, SchedulerState } from "./model";

function table(id: string, childName: string, taskName = "刷牙"): ChildTable {
  return {
    id,
    childName,
    weekStart: "2026-11-23",
    tasks: [{ id: `${id}-task`, name: taskName, icon: "🪥", days: [0, 1], timeOfDay: "早上" }],
    ticks: [`${id}-task:0`],
  };
}

const current: SchedulerState = { tables: [table("a", "小明"), table("b", "小華")], activeTableId: "a" };

describe("export and import", () => {
  it("round-trips every table through the backup file", () => {
    const result = importBackup({ tables: [{ ...table("fresh", ""), tasks: [], ticks: [] }], activeTableId: "fresh" }, backupText(current));
    expect(result).toEqual({ ok: true, imported: 2, state: { tables: current.tables, activeTableId: "a" } });
  });

  it("imports a table with an id already here as a copy, keeping what was added since the export", () => {
    const later: SchedulerState = {
      tables: [table("a", "小明"), { ...table("b", "小華"), ticks: ["b-task:0", "b-task:1"] }],
      activeTableId: "b",
    };
    const file: SchedulerState = { tables: [table("b", "小華", "寫功課"), table("c", "小安")], activeTableId: "b" };
    const result = importBackup(later, backupText(file), () => "copy");
    if (!result.ok) throw new Error("import failed");
    expect(result.state.tables.map((each) => [each.id, each.childName, each.tasks[0]?.name, each.ticks])).toEqual([
      ["a", "小明", "刷牙", ["a-task:0"]],
      ["b", "小華", "刷牙", ["b-task:0", "b-task:1"]],
      ["copy", "小華（匯入）", "寫功課", ["b-task:0"]],
      ["c", "小安", "刷牙", ["c-task:0"]],
    ]);
    expect(result.state.activeTableId).toBe("copy");
    expect(result.imported).toBe(2);
  });

  it("gives the copy an id no table has and shortens a long name so the suffix fits", () => {
    const ids = ["a", "c", "fresh"];
    const file: SchedulerState = { tables: [table("a", "一二三四五六七八九十壹貳", "寫功課"), table("c", "小安")], activeTableId: "a" };
    const result = importBackup(current, backupText(file), () => ids.shift()!);
    if (!result.ok) throw new Error("import failed");
    expect(result.state.tables.map((each) => [each.id, each.childName])).toEqual([
      ["a", "小明"],
      ["b", "小華"],
      ["fresh", "一二三四五六七八（匯入）"],
      ["c", "小安"],
    ]);
    // The copy is a valid saved table again.
    expect(importBackup({ tables: [], activeTableId: "" }, backupText(result.state)).ok).toBe(true);
  });

  it("does not add a table that is already here unchanged", () => {
    const result = importBackup(current, backupText(current), () => "copy");
    expect(result).toEqual({ ok: true, imported: 2, state: { tables: current.tables, activeTableId: "a" } });
  });

  it.each([
    ["an empty file", ""],
    ["a photo renamed to .json", "\u0089PNG\r\n"],
    ["another app's JSON", JSON.stringify({ name: "todo", items: [] })],
    ["a task name that is too long", backupText({ tables: [table("z", "小明", "很".repeat(21))], activeTableId: "z" })],
    ["a task on day 7", backupText({ tables: [{ ...table("z", "小明"), tasks: [{ id: "q", name: "刷牙", icon: "🪥", days: [7 as 0], timeOfDay: "早上" }] }], activeTableId: "z" })],
  ])("refuses %s and leaves the tables alone", (_label, text) => {
    expect(importBackup(current, text)).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses a file that would make more than ten tables", () => {
    const many: SchedulerState = { tables: Array.from({ length: 9 }, (_, index) => table(`n${index}`, `孩子${index}`)), activeTableId: "n0" };
    expect(importBackup(current, backupText(many))).toEqual({ ok: false, reason: "too-many" });
  });

  it("names the file after the day of the export", () => {
    expect(backupFileName(new Date(2026, 0, 5))).toBe("任務表備份-2026-01-05.json");
  });
});
