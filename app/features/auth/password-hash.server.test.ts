import { availableParallelism } from "node:os";
import { describe, expect, it, vi } from "vitest";
import { runWithRequestContext } from "~/services/request-context.server";
import { hashThreads } from "./hash-threads.server";
import { beginPasswordWork, hashPassword, inHashSlot, verifyPassword } from "./password-hash.server";

describe("password hashing", () => {
  it("keeps a core for the event loop from the other schemes' checks: never more at once than cores minus one (at least one), in arrival order", async () => {
    const slots = Math.max(1, availableParallelism() - 1);
    let running = 0;
    let most = 0;
    const finished: number[] = [];
    await Promise.all(
      Array.from({ length: slots * 3 + 2 }, (_, index) =>
        inHashSlot(async () => {
          running += 1;
          most = Math.max(most, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running -= 1;
          finished.push(index);
        }),
      ),
    );
    expect(most).toBe(slots);
    expect(finished).toEqual([...finished].sort((a, b) => a - b));
  });

  it("frees the slot when a hash fails", async () => {
    await expect(inHashSlot(() => Promise.reject(new Error("broken")))).rejects.toThrow("broken");
    const hashed = await hashPassword("café-family-1");
    await expect(verifyPassword({ hash: hashed, password: "cafe\u0301-family-1" })).resolves.toBe(true);
  });

  describe("begun early for a request (a password sign-in, decision 715)", () => {
    const inRequest = <T>(work: () => Promise<T>) => runWithRequestContext({ id: "early", errors: [] }, work);
    const jobs = () => {
      const verify = vi.spyOn(hashThreads, "verify");
      const hash = vi.spyOn(hashThreads, "hash");
      return { count: () => verify.mock.calls.length + hash.mock.calls.length, restore: () => (verify.mockRestore(), hash.mockRestore()) };
    };

    it("is the one job the request's verify or hash then asks for, with its answer", async () => {
      const stored = await hashPassword("lantern-harbour-9");
      const counted = jobs();
      try {
        await inRequest(async () => {
          beginPasswordWork(stored, "lantern-harbour-9");
          expect(counted.count()).toBe(1);
          await expect(verifyPassword({ hash: stored, password: "lantern-harbour-9" })).resolves.toBe(true);
          expect(counted.count()).toBe(1);
        });
        await inRequest(async () => {
          beginPasswordWork(stored, "a-wrong-password-1");
          await expect(verifyPassword({ hash: stored, password: "a-wrong-password-1" })).resolves.toBe(false);
          expect(counted.count()).toBe(2);
        });
        // An unknown address: the hash the endpoint makes so that it takes as long.
        await inRequest(async () => {
          beginPasswordWork(null, "lantern-harbour-9");
          await expect(hashPassword("lantern-harbour-9")).resolves.toMatch(/^\$argon2id\$/);
          expect(counted.count()).toBe(3);
        });
      } finally {
        counted.restore();
      }
    });

    it("is never another call's answer: another password, another stored hash, a second call, another request", async () => {
      const stored = await hashPassword("lantern-harbour-9");
      const other = await hashPassword("another-harbour-8");
      const counted = jobs();
      try {
        await inRequest(async () => {
          beginPasswordWork(stored, "lantern-harbour-9");
          await expect(verifyPassword({ hash: stored, password: "another-harbour-8" })).resolves.toBe(false);
          // Taken (and dropped) by the first call: the second, the very one begun, is a job of its own.
          await expect(verifyPassword({ hash: stored, password: "lantern-harbour-9" })).resolves.toBe(true);
        });
        expect(counted.count()).toBe(3);
        await inRequest(async () => {
          beginPasswordWork(stored, "lantern-harbour-9");
          await expect(verifyPassword({ hash: other, password: "lantern-harbour-9" })).resolves.toBe(false);
        });
        await inRequest(async () => {
          beginPasswordWork(null, "lantern-harbour-9");
          await expect(verifyPassword({ hash: stored, password: "lantern-harbour-9" })).resolves.toBe(true);
        });
        expect(counted.count()).toBe(7);
        // Begun in one request, asked in another: the other hashes for itself.
        await inRequest(async () => beginPasswordWork(stored, "lantern-harbour-9"));
        await inRequest(async () => expect(verifyPassword({ hash: stored, password: "lantern-harbour-9" })).resolves.toBe(true));
        expect(counted.count()).toBe(9);
        // Outside a request nothing is kept; past its deadline nothing is begun.
        beginPasswordWork(stored, "lantern-harbour-9");
        await expect(verifyPassword({ hash: stored, password: "lantern-harbour-9" })).resolves.toBe(true);
        expect(counted.count()).toBe(11);
        const ended = new AbortController();
        ended.abort();
        await runWithRequestContext({ id: "late", errors: [], deadline: ended.signal }, async () => beginPasswordWork(stored, "lantern-harbour-9"));
        expect(counted.count()).toBe(11);
      } finally {
        counted.restore();
      }
    });
  });
});
