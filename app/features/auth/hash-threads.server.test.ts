import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { argon2Options } from "./password-hash.server";
import { createHashThreads } from "./hash-threads.server";

/** The nice value of each thread of this process (Linux's /proc: field 19 of a task's stat). */
const niceOf = (statFile: string) => Number(fs.readFileSync(statFile, "utf8").split(") ")[1]!.split(" ")[16]);
const tasks = () => fs.readdirSync("/proc/self/task");
const taskStat = (task: string) => `/proc/self/task/${task}/stat`;
const threadsAt = (nice: number) => tasks().filter((task) => niceOf(taskStat(task)) === nice).length;
/** A thread's CPU time so far, in clock ticks (user + system: fields 14 and 15). */
const cpuOf = (task: string) => {
  const fields = fs.readFileSync(taskStat(task), "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
};

describe("hash threads", () => {
  it("hashes one at a time on the first thread, and what comes while one runs on the lowered threads", async () => {
    const threads = createHashThreads({ lowerBy: [0, 10, 10] });
    // The test command runs this at nice 5: the lowered threads are 10 below whatever this thread's is.
    const own = niceOf("/proc/thread-self/stat");
    const loweredNice = Math.min(19, own + 10);
    const lowered = threadsAt(loweredNice);
    const before = new Set(tasks());
    // One after the other: the first thread alone (no lowered one is started).
    const first = await threads.hash("family-password-0", argon2Options);
    await expect(threads.verify(first, "family-password-0")).resolves.toBe(true);
    expect(threadsAt(loweredNice)).toBe(lowered);
    const [firstThread] = tasks().filter((task) => !before.has(task)).sort((a, b) => cpuOf(b) - cpuOf(a));
    const firstThreadCpu = cpuOf(firstThread!);
    // Twelve at once: both lowered threads start, and only they are lowered (not the thread running this test).
    const hashes = await Promise.all(Array.from({ length: 12 }, (_, index) => threads.hash(`family-password-${index}`, argon2Options)));
    // The first thread took the first of the twelve; this instance's lowered threads (new since the start: another
    // file's site may have lowered threads of its own, with their own CPU) the other eleven.
    const firstThreadShare = cpuOf(firstThread!) - firstThreadCpu;
    const ownLowered = tasks().filter((task) => !before.has(task) && niceOf(taskStat(task)) === loweredNice);
    expect(ownLowered).toHaveLength(2);
    const loweredCpu = ownLowered.reduce((sum, task) => sum + cpuOf(task), 0);
    expect(loweredCpu).toBeGreaterThan(4 * Math.max(firstThreadShare, 1));
    expect(hashes.every((hash) => hash.startsWith("$argon2id$v=19$m=19456,t=2,p=1$"))).toBe(true);
    await expect(threads.verify(hashes[3]!, "family-password-3")).resolves.toBe(true);
    await expect(threads.verify(hashes[3]!, "family-password-4")).resolves.toBe(false);
    expect(threadsAt(loweredNice) - lowered).toBe(2);
    expect(niceOf("/proc/thread-self/stat")).toBe(own);
  });

  it("without a lowered thread, hashes at once on every thread", async () => {
    const threads = createHashThreads({ lowerBy: [0, 0] });
    const before = new Set(tasks());
    await Promise.all(Array.from({ length: 4 }, (_, index) => threads.hash(`family-password-${index}`, argon2Options)));
    expect(tasks().filter((task) => !before.has(task))).toHaveLength(2);
  });

  it("starts a thread again for the next job when it stops between jobs", async () => {
    // A thread that answers its first job, then stops while idle.
    const answersOnceThenStops = `
const { parentPort } = require("node:worker_threads");
parentPort.on("message", ({ password }) => {
  parentPort.postMessage({ result: "hashed:" + password });
  setTimeout(() => process.exit(0), 10);
});`;
    const threads = createHashThreads({ lowerBy: [0], source: answersOnceThenStops });
    await expect(threads.hash("first", {})).resolves.toBe("hashed:first");
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(threads.hash("second", {})).resolves.toBe("hashed:second");
  });

  it("fails a job argon2 refuses and goes on with the next", async () => {
    const threads = createHashThreads({ lowerBy: [0] });
    await expect(threads.verify("$argon2id$not-a-hash", "family-password")).rejects.toThrow();
    const hash = await threads.hash("family-password", argon2Options);
    await expect(threads.verify(hash, "family-password")).resolves.toBe(true);
  });
});
