import { describe, expect, it } from "vitest";
import { createChallenge, solveChallenge, verifySolution } from "altcha-lib";
import { deriveKey as nodeDeriveKey } from "altcha-lib/algorithms/sha";
import { deriveKey } from "./bot-check-derive-key";

// The browser's key derivation for the bot check's solver (bot-check-derive-key.ts): a challenge the server makes,
// solved with it and accepted by the server's check (Node's SHA-256).
describe("the bot check's key derivation", () => {
  it("solves a server's challenge with an answer the server accepts", async () => {
    const secret = "bot-check-sha-secret";
    const challenge = await createChallenge({ algorithm: "SHA-256", cost: 1, counter: 1_500, deriveKey: nodeDeriveKey, hmacSignatureSecret: secret });
    const solution = await solveChallenge({ challenge, deriveKey });
    expect(solution?.counter).toBe(1_500);
    const result = await verifySolution({ challenge, solution: solution!, deriveKey: nodeDeriveKey, hmacSignatureSecret: secret });
    expect(result.verified).toBe(true);
  });
});
