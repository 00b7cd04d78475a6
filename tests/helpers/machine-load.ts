import os from "node:os";

/** The most a busy machine stretches a timeout: past it a wait is a hang, not load. */
export const maxTimeoutScale = 3;

/**
 * How much to stretch the timeouts of the tests that wait on servers and browsers: the load average over the
 * cores (one minute's, read once when the run starts), never below 1 (a timeout is never shorter than written)
 * and at most `maxTimeoutScale`. TEST_TIMEOUT_SCALE sets it outright (e.g. 1 to see today's timeouts on a busy machine).
 */
export function timeoutScale(load = os.loadavg()[0] ?? 0, cores = os.availableParallelism(), override = process.env.TEST_TIMEOUT_SCALE): number {
  const fixed = Number(override);
  if (override && Number.isFinite(fixed) && fixed >= 1) return fixed;
  const perCore = load / Math.max(1, cores);
  return Math.round(Math.min(maxTimeoutScale, Math.max(1, perCore)) * 10) / 10;
}

/** A timeout in milliseconds stretched by the machine's load (`timeoutScale`), rounded to whole seconds. */
export function scaledTimeout(ms: number, scale = timeoutScale()): number {
  return Math.ceil((ms * scale) / 1000) * 1000;
}
