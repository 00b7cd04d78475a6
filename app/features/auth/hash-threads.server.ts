import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

/**
 * argon2id on threads of their own (decision 711): one at the event loop's own priority, which hashes whenever no
 * other hash runs, so a sign-in alone runs as it did on libuv's pool on a quiet or a busy machine; and one per core
 * below that priority, which take the hashes that come while one runs. In a sign-in storm every core hashes, and
 * gives itself back to the event loop (a page's request) and to the machine's other work as soon as they want it;
 * on a machine busy with other work, hashes that overlap wait for what it leaves.
 *
 * Linux keeps a nice value per thread, so a thread lowers its own alone. Elsewhere the same call would lower the
 * whole process: there every thread keeps the normal priority, and one core is left to the event loop.
 */
const perThreadPriority = process.platform === "linux";

/** What each thread runs: plain CommonJS, so the server bundle ships no file for it. */
const threadSource = `
const { parentPort, workerData } = require("node:worker_threads");
const argon2 = require(workerData.argon2);
if (workerData.lowerBy) {
  // Relative to the process's own nice value (a thread starts with its creator's); one the system refuses leaves the
  // thread at the normal priority.
  const os = require("node:os");
  try { os.setPriority(Math.min(19, os.getPriority() + workerData.lowerBy)); } catch {}
}
parentPort.on("message", ({ kind, password, stored, options }) => {
  try {
    parentPort.postMessage({ result: kind === "hash" ? argon2.hashSync(password, options) : argon2.verifySync(stored, password) });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});`;

type HashJob = { kind: "hash"; password: string; options: object } | { kind: "verify"; password: string; stored: string };
interface Pending {
  job: HashJob;
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
}
interface Slot {
  lowerBy: number;
  thread: Worker | null;
  busy: boolean;
}

/**
 * Runs argon2 jobs in arrival order on one thread per entry of `lowerBy` (how far below the process's priority it
 * runs, in nice steps: 0 for the same), each started on first use and kept idle afterwards without holding the
 * process open. A job takes the first thread when no job runs; while one does, the first idle lowered thread, or
 * where none is lowered, the first idle one. A thread that dies fails its job, if it had one, and is started again
 * for the next. `source` is what each thread runs (tests pass their own; the site's runs argon2).
 */
export function createHashThreads({ lowerBy, source = threadSource }: { lowerBy: readonly number[]; source?: string }) {
  const argon2 = createRequire(import.meta.url).resolve("@node-rs/argon2");
  const slots: Slot[] = lowerBy.map((steps) => ({ lowerBy: steps, thread: null, busy: false }));
  const queue: Pending[] = [];

  const threadOf = (slot: Slot) => {
    if (!slot.thread) {
      const thread = new Worker(source, { eval: true, workerData: { argon2, lowerBy: slot.lowerBy } });
      thread.unref();
      // One that stops between jobs is started again for the next, which would otherwise be posted to nobody.
      thread.once("exit", () => {
        if (slot.thread === thread) slot.thread = null;
      });
      slot.thread = thread;
    }
    return slot.thread;
  };

  const runOn = (slot: Slot, pending: Pending) => {
    const thread = threadOf(slot);
    slot.busy = true;
    const settle = (outcome: { result?: string | boolean; error?: string } | Error) => {
      thread.off("message", settle);
      thread.off("error", settle);
      thread.off("exit", exited);
      slot.busy = false;
      if (outcome instanceof Error) {
        slot.thread = null;
        pending.reject(outcome);
      } else if (outcome.error !== undefined) pending.reject(new Error(outcome.error));
      else pending.resolve(outcome.result!);
      next();
    };
    const exited = (code: number) => settle(new Error(`a hash thread stopped (code ${code})`));
    thread.on("message", settle);
    thread.on("error", settle);
    thread.on("exit", exited);
    thread.postMessage(pending.job);
  };

  const anyLowered = slots.some((slot) => slot.lowerBy > 0);
  const next = () => {
    while (queue.length) {
      const alone = slots.every((slot) => !slot.busy);
      const idle = alone ? slots[0] : slots.find((slot) => !slot.busy && (slot.lowerBy > 0 || !anyLowered));
      if (!idle) return;
      runOn(idle, queue.shift()!);
    }
  };

  const run = (job: HashJob) =>
    new Promise<string | boolean>((resolve, reject) => {
      queue.push({ job, resolve, reject });
      next();
    });
  return {
    hash: (password: string, options: object) => run({ kind: "hash", password, options }) as Promise<string>,
    verify: (stored: string, password: string) => run({ kind: "verify", password, stored }) as Promise<boolean>,
  };
}

const cores = availableParallelism();
/**
 * The site's. On Linux with more than one core: one thread at the normal priority and one per core 10 nice steps
 * below it. Otherwise `cores − 1` (at least one) at the normal priority, a core left to the event loop.
 */
export const hashThreads = createHashThreads({
  lowerBy: perThreadPriority && cores > 1 ? [0, ...Array<number>(cores).fill(10)] : Array<number>(Math.max(1, cores - 1)).fill(0),
});
