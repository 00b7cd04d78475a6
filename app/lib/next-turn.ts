/**
 * Gives the main thread back for one turn (input, painting and other tasks go first), then resolves: the
 * browser's `scheduler.yield()`, or a timer where there is none.
 */
export function nextTurn(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield?.() ?? new Promise((resolve) => setTimeout(resolve, 0));
}
