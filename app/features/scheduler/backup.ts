import { maxTables, type ChildTable, type SchedulerState } from "./model";
import { readSavedText, toSaved } from "./schema";
import { toIsoDate } from "./week";

/** A backup file is the saved shape itself, so every version the page can load can also be imported. */
export function backupText(state: SchedulerState): string {
  return `${JSON.stringify(toSaved(state), null, 2)}\n`;
}

export function backupFileName(today: Date): string {
  return `任務表備份-${toIsoDate(today)}.json`;
}

export type ImportResult = { ok: true; state: SchedulerState; imported: number } | { ok: false; reason: "invalid" | "too-many" };

/**
 * Adds the file's tables to the current ones; a table with the same id (one exported from here
 * earlier) is replaced by its copy in the file, and a still-blank table gives way. Nothing a parent
 * typed is lost by importing the wrong file.
 */
export function importBackup(current: SchedulerState, text: string): ImportResult {
  const read = readSavedText(text);
  if (!read.ok) return { ok: false, reason: "invalid" };
  const incoming = new Map(read.state.tables.map((table) => [table.id, table]));
  const kept: ChildTable[] = current.tables.filter((table) => !isBlank(table)).map((table) => incoming.get(table.id) ?? table);
  const added = read.state.tables.filter((table) => !current.tables.some((existing) => existing.id === table.id));
  const tables = [...kept, ...added];
  if (tables.length > maxTables) return { ok: false, reason: "too-many" };
  return {
    ok: true,
    state: { tables, activeTableId: read.state.tables[0]?.id ?? current.activeTableId },
    imported: read.state.tables.length,
  };
}

function isBlank(table: ChildTable): boolean {
  return table.childName === "" && table.tasks.length === 0;
}
