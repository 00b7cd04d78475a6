import { describe, expect, it } from "vitest";
import {
  addTask,
  cellCount,
  createTable,
  maxTasksPerTable,
  moveTask,
  removeTask,
  starCount,
  startNewWeek,
  toggleTick,
  updateTask,
  type ChildTable,
  type Task,
} from "./model";

const wednesday = new Date(2026, 10, 25); // 2026-11-25, a Wednesday

function task(id: string, overrides: Partial<Task> = {}): Task {
  return { id, name: `任務${id}`, icon: "⭐", days: [0, 1, 2, 3, 4, 5, 6], timeOfDay: "早上", ...overrides };
}

function tableWith(...tasks: Task[]): ChildTable {
  return tasks.reduce(addTask, createTable("t1", wednesday, "小明"));
}

describe("table model", () => {
  it("starts a table on the Monday of the current week, empty", () => {
    expect(createTable("t1", wednesday, "小明")).toEqual({ id: "t1", childName: "小明", weekStart: "2026-11-23", tasks: [], ticks: [] });
  });

  it("adds tasks in order and stops at the per-table limit", () => {
    const table = tableWith(task("a"), task("b"));
    expect(table.tasks.map((each) => each.id)).toEqual(["a", "b"]);
    const full = Array.from({ length: maxTasksPerTable + 3 }, (_, index) => task(String(index))).reduce(addTask, table);
    expect(full.tasks).toHaveLength(maxTasksPerTable);
  });

  it("edits a task and drops ticks of days it no longer applies to", () => {
    let table = tableWith(task("a"));
    table = toggleTick(toggleTick(table, "a", 0), "a", 5);
    table = updateTask(table, "a", { name: "刷牙", icon: "🪥", days: [4, 0, 1], timeOfDay: "晚上" });
    expect(table.tasks[0]).toEqual({ id: "a", name: "刷牙", icon: "🪥", days: [0, 1, 4], timeOfDay: "晚上" });
    expect(table.ticks).toEqual(["a:0"]);
  });

  it("moves a task to a new position, clamped to the list", () => {
    const table = tableWith(task("a"), task("b"), task("c"));
    expect(moveTask(table, "c", 0).tasks.map((each) => each.id)).toEqual(["c", "a", "b"]);
    expect(moveTask(table, "a", 1).tasks.map((each) => each.id)).toEqual(["b", "a", "c"]);
    expect(moveTask(table, "a", 99).tasks.map((each) => each.id)).toEqual(["b", "c", "a"]);
    expect(moveTask(table, "missing", 0)).toBe(table);
  });

  it("removes a task together with its ticks", () => {
    const table = toggleTick(toggleTick(tableWith(task("a"), task("b")), "a", 0), "b", 0);
    const after = removeTask(table, "a");
    expect(after.tasks.map((each) => each.id)).toEqual(["b"]);
    expect(after.ticks).toEqual(["b:0"]);
  });

  it("ticks and unticks cells, only on days the task applies to, one star per done cell", () => {
    let table = tableWith(task("a", { days: [0, 2] }), task("b"));
    table = toggleTick(table, "a", 0);
    table = toggleTick(table, "a", 1); // not a day of this task
    table = toggleTick(table, "b", 6);
    expect(table.ticks).toEqual(["a:0", "b:6"]);
    expect(starCount(table)).toBe(2);
    expect(cellCount(table)).toBe(9);
    expect(starCount(toggleTick(table, "b", 6))).toBe(1);
  });

  it("starts a new week: ticks cleared, tasks kept, the next Monday", () => {
    const table = toggleTick(tableWith(task("a")), "a", 3);
    const next = startNewWeek(table, wednesday);
    expect(next.ticks).toEqual([]);
    expect(next.tasks).toEqual(table.tasks);
    expect(next.weekStart).toBe("2026-11-30");
  });

  it("jumps to the current week when the table was left for weeks", () => {
    const old = { ...tableWith(task("a")), weekStart: "2026-10-05" };
    expect(startNewWeek(old, wednesday).weekStart).toBe("2026-11-23");
  });
});
