import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { argon2Options } from "./password-hash.server";
import { createHashThreads } from "./hash-threads.server";

/** The nice value of each thread of this process (Linux's /proc: field 19 of a task's stat). */
const niceOf = (statFile: string) => Number(fs.readFileSync(statFile, "utf8").split(") ")[1]!.split(" ")[16]);
const threadsAt = (nice: number) => fs.readdirSync("/proc/self/task").filter((task) => niceOf(`/proc/self/task/${task}/stat`) === nice).length;

describe("hash threads", () => {
  it("hashes one at a time on the first thread, and on each thread at its own priority when they pile up", async () => {
    const threads = createHashThreads({ lowerBy: [0, 10] });
    // The test command runs this at nice 5: the lowered thread is 10 below whatever this thread's is.
    const own = niceOf("/proc/thread-self/stat");
    const loweredNice = Math.min(19, own + 10);
    const lowered = threadsAt(loweredNice);
    // One after the other: the first thread alone (the lowered one is never started).
    const first = await threads.hash("family-password-0", argon2Options);
    await expect(threads.verify(first, "family-password-0")).resolves.toBe(true);
    expect(threadsAt(loweredNice)).toBe(lowered);
    // Six at once: the second thread too, and only it lowered (not the thread running this test).
    const hashes = await Promise.all(Array.from({ length: 6 }, (_, index) => threads.hash(`family-password-${index}`, argon2Options)));
    expect(hashes.every((hash) => hash.startsWith("$argon2id$v=19$m=19456,t=2,p=1$"))).toBe(true);
    await expect(threads.verify(hashes[3]!, "family-password-3")).resolves.toBe(true);
    await expect(threads.verify(hashes[3]!, "family-password-4")).resolves.toBe(false);
    expect(threadsAt(loweredNice) - lowered).toBe(1);
    expect(niceOf("/proc/thread-self/stat")).toBe(own);
  });

  it("fails a job argon2 refuses and goes on with the next", async () => {
    const threads = createHashThreads({ lowerBy: [0] });
    await expect(threads.verify("$argon2id$not-a-hash", "family-password")).rejects.toThrow();
    const hash = await threads.hash("family-password", argon2Options);
    await expect(threads.verify(hash, "family-password")).resolves.toBe(true);
  });
});
