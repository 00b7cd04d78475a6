import { z } from "~/lib/zod-mini";
import {
  childNameMaxLength,
  maxTables,
  maxTasksPerTable,
  normaliseDays,
  taskNameMaxLength,
  tickKey,
  timesOfDay,
  type ChildTable,
  type SchedulerState,
} from "./model";
import type { Weekday } from "./week";

/**
 * The saved shape, versioned. Version 1 was the first shape of this tool (one table per browser);
 * each older version has one migration step to the next, so any saved data or backup file is read
 * by the same chain. Change the shape → add a version and a step, never edit an old schema.
 */
export const currentVersion = 2;

const isoDate = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/));
const weekday = z.int().check(z.gte(0), z.lte(6));
const id = z.string().check(z.minLength(1), z.maxLength(64));
const taskName = z.string().check(z.trim(), z.minLength(1), z.maxLength(taskNameMaxLength));
const icon = z.string().check(z.minLength(1), z.maxLength(16));

const taskV1 = z.object({ id, name: taskName, icon, days: z.array(weekday), time: z.enum(timesOfDay) });
const stateV1 = z.object({
  version: z.literal(1),
  childName: z.string(),
  weekStart: isoDate,
  tasks: z.array(taskV1).check(z.maxLength(maxTasksPerTable)),
  /** task id → done days */
  done: z.record(z.string(), z.array(weekday)),
});

const taskV2 = z.object({ id, name: taskName, icon, days: z.array(weekday), timeOfDay: z.enum(timesOfDay) });
const tableV2 = z.object({
  id,
  childName: z.string().check(z.maxLength(childNameMaxLength)),
  weekStart: isoDate,
  tasks: z.array(taskV2).check(z.maxLength(maxTasksPerTable)),
  ticks: z.array(z.string()),
});
const stateV2 = z.object({
  version: z.literal(2),
  tables: z.array(tableV2).check(z.minLength(1), z.maxLength(maxTables)),
  activeTableId: z.string(),
});

type StateV1 = z.infer<typeof stateV1>;
type StateV2 = z.infer<typeof stateV2>;

function migrateV1(old: StateV1): StateV2 {
  const table = {
    id: "table-1",
    childName: old.childName.slice(0, childNameMaxLength),
    weekStart: old.weekStart,
    tasks: old.tasks.map(({ time, ...task }) => ({ ...task, timeOfDay: time })),
    ticks: Object.entries(old.done).flatMap(([taskId, days]) => days.map((day) => tickKey(taskId, day as Weekday))),
  };
  return { version: 2, tables: [table], activeTableId: table.id };
}

/** Repairs what a schema cannot express: duplicate ids, ticks of removed tasks or days, a missing active table. */
function tidy(saved: StateV2): SchedulerState {
  const tables = saved.tables.map((table): ChildTable => {
    const tasks = table.tasks
      .filter((task, index) => table.tasks.findIndex((other) => other.id === task.id) === index)
      .map((task) => ({ ...task, days: normaliseDays(task.days as Weekday[]) }));
    const cells = new Set(tasks.flatMap((task) => task.days.map((day) => tickKey(task.id, day))));
    return { ...table, tasks, ticks: [...new Set(table.ticks)].filter((key) => cells.has(key)) };
  });
  const activeTableId = tables.some((table) => table.id === saved.activeTableId)
    ? saved.activeTableId
    : (tables[0]?.id ?? "");
  return { tables, activeTableId };
}

export type ReadResult = { ok: true; state: SchedulerState } | { ok: false };

/** Reads saved data of any known version; anything else is reported, never thrown. */
export function readSaved(data: unknown): ReadResult {
  const version = (data as { version?: unknown } | null)?.version;
  if (version === 1) {
    const parsed = stateV1.safeParse(data);
    return parsed.success ? { ok: true, state: tidy(migrateV1(parsed.data)) } : { ok: false };
  }
  const parsed = stateV2.safeParse(data);
  return parsed.success ? { ok: true, state: tidy(parsed.data) } : { ok: false };
}

export function readSavedText(text: string): ReadResult {
  try {
    return readSaved(JSON.parse(text));
  } catch {
    return { ok: false };
  }
}

export function toSaved(state: SchedulerState): StateV2 {
  return { version: currentVersion, ...state };
}
