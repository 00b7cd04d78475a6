import { childNameMaxLength, maxTables, newId, type ChildTable, type SchedulerState } from "./model";
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

/** Added to the name of a table imported next to the one it was exported from. */
export const importedCopySuffix = "（匯入）";

/**
 * Adds the file's tables to the current ones. A table with the same id as one here (exported from this
 * browser earlier) comes in as a copy with a new id and 「（匯入）」 after its name, so ticks and tasks added
 * since the export are never overwritten; an identical one is not added twice. A still-blank table gives way.
 * Nothing a parent typed is lost by importing the wrong file.
 */
export function importBackup(current: SchedulerState, text: string, makeId: () => string = newId): ImportResult {
  const read = readSavedText(text);
  if (!read.ok) return { ok: false, reason: "invalid" };
  const kept = current.tables.filter((table) => !isBlank(table));
  const taken = new Set([...kept, ...read.state.tables].map((table) => table.id));
  const idInFile = new Map<string, string>();
  const added: ChildTable[] = [];
  for (const table of read.state.tables) {
    const existing = kept.find((candidate) => candidate.id === table.id);
    if (!existing) {
      added.push(table);
    } else if (JSON.stringify(existing) !== JSON.stringify(table)) {
      let id = makeId();
      while (taken.has(id)) id = makeId();
      taken.add(id);
      idInFile.set(table.id, id);
      added.push({ ...table, id, childName: copyName(table.childName) });
    }
  }
  const tables = [...kept, ...added];
  if (tables.length > maxTables) return { ok: false, reason: "too-many" };
  const firstInFile = read.state.tables[0]?.id;
  return {
    ok: true,
    state: { tables, activeTableId: firstInFile ? (idInFile.get(firstInFile) ?? firstInFile) : current.activeTableId },
    imported: read.state.tables.length,
  };
}

/** The name with the suffix, shortened first where needed so it still fits the name's limit. */
function copyName(childName: string): string {
  return `${childName.slice(0, childNameMaxLength - importedCopySuffix.length)}${importedCopySuffix}`;
}

function isBlank(table: ChildTable): boolean {
  return table.childName === "" && table.tasks.length === 0;
}
