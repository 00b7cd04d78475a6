import { createHash, randomBytes } from "node:crypto";
import { createChallenge, solveChallenge, verifySolution } from "altcha-lib";
import { deriveKey as serverDeriveKey } from "altcha-lib/algorithms/sha";
import { describe, expect, it } from "vitest";
import { deriveKey, sha256 } from "./bot-check-sha256";

describe("the bot check's SHA-256 in JavaScript", () => {
  it("gives Node's digest for every length around the block edges and beyond", () => {
    for (let length = 0; length <= 200; length++) {
      const data = randomBytes(length);
      expect(Buffer.from(sha256(data)).toString("hex"), `length ${length}`).toBe(createHash("sha256").update(data).digest("hex"));
    }
  });

  it("solves the server's challenge, and the server's check takes the answer", async () => {
    const secret = "a-secret-of-at-least-thirty-two-characters";
    for (const counter of [1, 777, 5_000]) {
      const challenge = await createChallenge({ algorithm: "SHA-256", cost: 1, counter, deriveKey: serverDeriveKey, expiresAt: Math.floor(Date.now() / 1000) + 600, hmacSignatureSecret: secret });
      const solution = await solveChallenge({ challenge, deriveKey });
      expect(solution?.counter).toBe(counter);
      expect((await verifySolution({ challenge, solution: solution!, deriveKey: serverDeriveKey, hmacSignatureSecret: secret })).verified).toBe(true);
    }
  });
});
