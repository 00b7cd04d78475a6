import { describe, expect, it } from "vitest";
import { maxTables } from "./model";
import { schedulerReducer, type SchedulerAction, type SchedulerView } from "./scheduler-reducer";

const today = new Date(2026, 10, 25);
const loaded: SchedulerView = {
  schedule: { tables: [{ id: "a", childName: "小明", weekStart: "2026-11-23", tasks: [], ticks: [] }], activeTableId: "a" },
};

const run = (view: SchedulerView, ...actions: SchedulerAction[]) => actions.reduce(schedulerReducer, view);

describe("scheduler page state", () => {
  it("keeps changes made before the saved tables are read and applies them, in order, once they are", () => {
    const task = { id: "t", name: "刷牙", icon: "🪥", days: [0], timeOfDay: "早上" } as const;
    const before = run({ schedule: null }, { type: "rename-child", name: "小華" }, { type: "add-missing-tasks", tasks: [{ ...task, days: [0] }] });
    expect(before.schedule).toBeNull();
    const after = run(before, { type: "loaded", schedule: loaded.schedule! });
    expect(after.schedule?.tables[0]).toMatchObject({ childName: "小華", tasks: [{ name: "刷牙" }] });
    expect(after.early).toBeUndefined();
  });

  it("adds a template's tasks only once, whenever the tap was made", () => {
    const task = { id: "t", name: "刷牙", icon: "🪥", days: [0], timeOfDay: "早上" } as const;
    const twice = run(loaded, { type: "add-missing-tasks", tasks: [{ ...task, days: [0] }] }, { type: "add-missing-tasks", tasks: [{ ...task, id: "u", days: [0] }] });
    expect(twice.schedule?.tables[0]?.tasks.map((added) => added.id)).toEqual(["t"]);
  });

  it("keeps one table per child and changes only the active one", () => {
    const view = run(
      loaded,
      { type: "add-table", id: "b", today },
      { type: "rename-child", name: "小華" },
      { type: "add-tasks", tasks: [{ id: "t", name: "刷牙", icon: "🪥", days: [0], timeOfDay: "早上" }] },
      { type: "toggle-tick", taskId: "t", day: 0 },
    );
    expect(view.schedule?.activeTableId).toBe("b");
    expect(view.schedule?.tables.map((table) => [table.childName, table.tasks.length, table.ticks])).toEqual([
      ["小明", 0, []],
      ["小華", 1, ["t:0"]],
    ]);
    const back = run(view, { type: "select-table", id: "a" }, { type: "rename-child", name: "小明明" });
    expect(back.schedule?.tables.map((table) => table.childName)).toEqual(["小明明", "小華"]);
  });

  it(`stops adding tables at ${maxTables}`, () => {
    const actions = Array.from({ length: maxTables + 2 }, (_, index): SchedulerAction => ({ type: "add-table", id: `n${index}`, today }));
    expect(run(loaded, ...actions).schedule?.tables).toHaveLength(maxTables);
  });

  it("removing the shown table shows another; removing the last one leaves a blank table", () => {
    const two = run(loaded, { type: "add-table", id: "b", today }, { type: "remove-table", id: "b", today });
    expect(two.schedule?.activeTableId).toBe("a");
    const none = run(two, { type: "remove-table", id: "a", today });
    expect(none.schedule?.tables).toHaveLength(1);
    expect(none.schedule?.tables[0]).toMatchObject({ childName: "", tasks: [] });
    expect(none.schedule?.activeTableId).toBe(none.schedule?.tables[0]?.id);
  });

  it("remembers that saving failed, without losing an earlier load problem", () => {
    expect(run(loaded, { type: "save-failed" }).problem).toBe("unavailable");
    expect(run({ ...loaded, problem: "unreadable" }, { type: "save-failed" }).problem).toBe("unreadable");
  });
});
