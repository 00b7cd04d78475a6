import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createChallenge, solveChallenge, verifySolution } from "altcha-lib";
import { deriveKey as nodeDeriveKey } from "altcha-lib/algorithms/sha";
import { deriveKey, sha256 } from "./bot-check-sha256";

// The browser's SHA-256 for the bot check's solver (bot-check-sha256.ts) against Node's, at every length around
// the block edges, and a challenge the server makes, solved with it and accepted by the server's check.
describe("the bot check's SHA-256", () => {
  it("gives Node's digest for every length from 0 to 200 bytes", () => {
    for (let length = 0; length <= 200; length++) {
      const data = Uint8Array.from({ length }, (_, index) => (index * 31 + length) & 0xff);
      expect(Buffer.from(sha256(data)).toString("hex"), `length ${length}`).toBe(createHash("sha256").update(data).digest("hex"));
    }
  });

  it("solves a server's challenge with an answer the server accepts", async () => {
    const secret = "bot-check-sha-secret";
    const challenge = await createChallenge({ algorithm: "SHA-256", cost: 1, counter: 1_500, deriveKey: nodeDeriveKey, hmacSignatureSecret: secret });
    const solution = await solveChallenge({ challenge, deriveKey });
    expect(solution?.counter).toBe(1_500);
    const result = await verifySolution({ challenge, solution: solution!, deriveKey: nodeDeriveKey, hmacSignatureSecret: secret });
    expect(result.verified).toBe(true);
  });
});
