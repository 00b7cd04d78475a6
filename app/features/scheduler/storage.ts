import { createState, type SchedulerState } from "./model";
import { readSavedText, toSaved } from "./schema";

export const storageKey = "task-scheduler";
/** Unreadable data is moved here instead of being overwritten, so nothing a parent typed is destroyed. */
export const unreadableKey = "task-scheduler:unreadable";

/** Why the page could not simply load what was saved; the page tells the parent kindly. */
export type LoadProblem = "unreadable" | "unavailable";

export interface LoadResult {
  state: SchedulerState;
  problem?: LoadProblem;
}

/** Loads the saved tables; never throws (storage may be blocked, full or hold broken data). */
export function loadSchedule(storage: Storage | undefined, today: Date): LoadResult {
  let text: string | null;
  try {
    if (!storage) return { state: createState(today), problem: "unavailable" };
    text = storage.getItem(storageKey);
  } catch {
    return { state: createState(today), problem: "unavailable" };
  }
  if (text === null) return { state: createState(today) };
  const read = readSavedText(text);
  if (read.ok) return { state: read.state };
  try {
    storage.setItem(unreadableKey, text);
  } catch {
    // Keeping a copy is a courtesy; the fresh table still works.
  }
  return { state: createState(today), problem: "unreadable" };
}

/** Saves the tables; returns false when the browser refuses (private mode, storage full). */
export function saveSchedule(storage: Storage | undefined, state: SchedulerState): boolean {
  try {
    if (!storage) return false;
    storage.setItem(storageKey, JSON.stringify(toSaved(state)));
    return true;
  } catch {
    return false;
  }
}
