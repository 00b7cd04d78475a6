import { allWeekdays, mondayOf, nextWeekStart, type Weekday } from "./week";

/** The table model as pure functions: every change returns a new value and never mutates. */

export const timesOfDay = ["早上", "下午", "晚上"] as const;
export type TimeOfDay = (typeof timesOfDay)[number];

export const taskNameMaxLength = 20;
export const childNameMaxLength = 12;
/** Twenty rows still print as large cells on one A4 page. */
export const maxTasksPerTable = 20;
export const maxTables = 10;

export interface Task {
  id: string;
  name: string;
  icon: string;
  days: Weekday[];
  timeOfDay: TimeOfDay;
}

export type TaskDraft = Omit<Task, "id">;

export interface ChildTable {
  id: string;
  childName: string;
  /** Monday of the week being ticked, `YYYY-MM-DD`. */
  weekStart: string;
  tasks: Task[];
  /** Done cells of this week as `taskId:day`. */
  ticks: string[];
}

export interface SchedulerState {
  tables: ChildTable[];
  activeTableId: string;
}

export function tableTitle(table: ChildTable): string {
  return table.childName ? `${table.childName}的任務表` : "我的任務表";
}

export function newId(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
}

export function createTable(id: string, today: Date, childName = ""): ChildTable {
  return { id, childName, weekStart: mondayOf(today), tasks: [], ticks: [] };
}

export function createState(today: Date): SchedulerState {
  const table = createTable(newId(), today);
  return { tables: [table], activeTableId: table.id };
}

export function tickKey(taskId: string, day: Weekday): string {
  return `${taskId}:${day}`;
}

export function canAddTask(table: ChildTable): boolean {
  return table.tasks.length < maxTasksPerTable;
}

export function addTask(table: ChildTable, task: Task): ChildTable {
  if (!canAddTask(table)) return table;
  return { ...table, tasks: [...table.tasks, task] };
}

/** Days the task no longer applies to lose their ticks. */
export function updateTask(table: ChildTable, id: string, draft: TaskDraft): ChildTable {
  const days = normaliseDays(draft.days);
  return {
    ...table,
    tasks: table.tasks.map((task) => (task.id === id ? { ...draft, id, days } : task)),
    ticks: table.ticks.filter((key) => {
      const [taskId, day] = key.split(":");
      return taskId !== id || days.includes(Number(day) as Weekday);
    }),
  };
}

export function removeTask(table: ChildTable, id: string): ChildTable {
  return {
    ...table,
    tasks: table.tasks.filter((task) => task.id !== id),
    ticks: table.ticks.filter((key) => !key.startsWith(`${id}:`)),
  };
}

/** Moves a task to `toIndex` (clamped to the list). */
export function moveTask(table: ChildTable, id: string, toIndex: number): ChildTable {
  const from = table.tasks.findIndex((task) => task.id === id);
  if (from < 0) return table;
  const target = Math.max(0, Math.min(toIndex, table.tasks.length - 1));
  if (target === from) return table;
  const tasks = [...table.tasks];
  const [moved] = tasks.splice(from, 1);
  if (moved) tasks.splice(target, 0, moved);
  return { ...table, tasks };
}

export function toggleTick(table: ChildTable, taskId: string, day: Weekday): ChildTable {
  const task = table.tasks.find((candidate) => candidate.id === taskId);
  if (!task || !task.days.includes(day)) return table;
  const key = tickKey(taskId, day);
  const ticks = table.ticks.includes(key) ? table.ticks.filter((tick) => tick !== key) : [...table.ticks, key];
  return { ...table, ticks };
}

/** One star per done cell. */
export function starCount(table: ChildTable): number {
  return table.ticks.length;
}

export function cellCount(table: ChildTable): number {
  return table.tasks.reduce((sum, task) => sum + task.days.length, 0);
}

/** Clears this week's ticks, keeps the tasks, and moves on to the next week. */
export function startNewWeek(table: ChildTable, today: Date): ChildTable {
  return { ...table, ticks: [], weekStart: nextWeekStart(table.weekStart, today) };
}

export function normaliseDays(days: readonly Weekday[]): Weekday[] {
  return allWeekdays.filter((day) => days.includes(day));
}
