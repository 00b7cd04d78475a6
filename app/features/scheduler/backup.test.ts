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

  it("replaces a table with its copy from the file and adds the others, keeping the rest", () => {
    const file: SchedulerState = { tables: [table("b", "小華", "寫功課"), table("c", "小安")], activeTableId: "b" };
    const result = importBackup(current, backupText(file));
    if (!result.ok) throw new Error("import failed");
    expect(result.state.tables.map((each) => [each.id, each.childName, each.tasks[0]?.name])).toEqual([
      ["a", "小明", "刷牙"],
      ["b", "小華", "寫功課"],
      ["c", "小安", "刷牙"],
    ]);
    expect(result.state.activeTableId).toBe("b");
    expect(result.imported).toBe(2);
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
