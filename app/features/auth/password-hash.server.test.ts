import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { hashPassword, inHashSlot, verifyPassword } from "./password-hash.server";

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
});
