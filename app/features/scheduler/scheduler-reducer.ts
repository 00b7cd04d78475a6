import {
  addTask,
  createState,
  createTable,
  maxTables,
  moveTask,
  removeTask,
  startNewWeek,
  toggleTick,
  updateTask,
  type ChildTable,
  type SchedulerState,
  type Task,
  type TaskDraft,
} from "./model";
import type { LoadProblem } from "./storage";
import type { Weekday } from "./week";

/** Everything the page keeps: the tables once loaded from the browser, and why loading fell short. */
export interface SchedulerView {
  /** null until the browser's saved tables are read (on the server and in the first render). */
  schedule: SchedulerState | null;
  problem?: LoadProblem;
  /**
   * Changes made before the saved tables were read (a tap kept from before hydration, the tasks a form sent in
   * the address): applied in order once they are, so none is lost.
   */
  early?: ScheduleChange[];
}

/** Ids and dates come in with the action, so the reducer stays pure and testable. */
export type SchedulerAction =
  | { type: "loaded"; schedule: SchedulerState; problem?: LoadProblem }
  | { type: "save-failed" }
  | { type: "imported"; schedule: SchedulerState }
  | { type: "select-table"; id: string }
  | { type: "add-table"; id: string; today: Date }
  | { type: "remove-table"; id: string; today: Date }
  | { type: "rename-child"; name: string }
  | { type: "add-tasks"; tasks: Task[] }
  /** Template tasks: those whose name the table already has are left out (a tap made before the table was read). */
  | { type: "add-missing-tasks"; tasks: Task[] }
  | { type: "update-task"; id: string; draft: TaskDraft }
  | { type: "remove-task"; id: string }
  | { type: "move-task"; id: string; toIndex: number }
  | { type: "toggle-tick"; taskId: string; day: Weekday }
  | { type: "new-week"; today: Date };

export function activeTable(schedule: SchedulerState): ChildTable | undefined {
  return schedule.tables.find((table) => table.id === schedule.activeTableId);
}

function changeActive(schedule: SchedulerState, change: (table: ChildTable) => ChildTable): SchedulerState {
  return {
    ...schedule,
    tables: schedule.tables.map((table) => (table.id === schedule.activeTableId ? change(table) : table)),
  };
}

type ScheduleChange = Exclude<SchedulerAction, { type: "loaded" | "save-failed" }>;

function reduceSchedule(schedule: SchedulerState, action: ScheduleChange): SchedulerState {
  switch (action.type) {
    case "imported":
      return action.schedule;
    case "select-table":
      return schedule.tables.some((table) => table.id === action.id) ? { ...schedule, activeTableId: action.id } : schedule;
    case "add-table":
      if (schedule.tables.length >= maxTables) return schedule;
      return { tables: [...schedule.tables, createTable(action.id, action.today)], activeTableId: action.id };
    case "remove-table": {
      const tables = schedule.tables.filter((table) => table.id !== action.id);
      // A page always shows a table to fill in.
      if (tables.length === 0) return createState(action.today);
      const activeTableId = tables.some((table) => table.id === schedule.activeTableId)
        ? schedule.activeTableId
        : (tables[0]?.id ?? "");
      return { tables, activeTableId };
    }
    case "rename-child":
      return changeActive(schedule, (table) => ({ ...table, childName: action.name }));
    case "add-tasks":
      return changeActive(schedule, (table) => action.tasks.reduce(addTask, table));
    case "add-missing-tasks":
      return changeActive(schedule, (table) =>
        action.tasks.reduce((changed, task) => (changed.tasks.some((existing) => existing.name === task.name) ? changed : addTask(changed, task)), table),
      );
    case "update-task":
      return changeActive(schedule, (table) => updateTask(table, action.id, action.draft));
    case "remove-task":
      return changeActive(schedule, (table) => removeTask(table, action.id));
    case "move-task":
      return changeActive(schedule, (table) => moveTask(table, action.id, action.toIndex));
    case "toggle-tick":
      return changeActive(schedule, (table) => toggleTick(table, action.taskId, action.day));
    case "new-week":
      return changeActive(schedule, (table) => startNewWeek(table, action.today));
  }
}

export function schedulerReducer(view: SchedulerView, action: SchedulerAction): SchedulerView {
  if (action.type === "loaded") return { schedule: (view.early ?? []).reduce(reduceSchedule, action.schedule), problem: action.problem };
  if (action.type === "save-failed") return view.problem ? view : { ...view, problem: "unavailable" };
  if (!view.schedule) return { ...view, early: [...(view.early ?? []), action] };
  return { ...view, schedule: reduceSchedule(view.schedule, action) };
}
