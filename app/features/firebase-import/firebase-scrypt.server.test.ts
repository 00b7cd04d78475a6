import { describe, expect, it } from "vitest";
import { readExport, ExportFileError } from "./export-file";
import { firebaseScryptHash, hashParametersProblem, storedFirebaseHash, verifyFirebaseHash } from "./firebase-scrypt.server";

// The published test vector of github.com/firebase/scrypt (its README).
const parameters = {
  signerKey: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
  saltSeparator: "Bw==",
  rounds: 8,
  memCost: 14,
};
const salt = "42xEC+ixf3L2lw==";
const expected = "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==";

describe("Firebase's modified scrypt", () => {
  it("reproduces the published test vector", async () => {
    expect(await firebaseScryptHash("user1password", salt, parameters)).toBe(expected);
  });

  it("verifies the right password only, and not under other parameters", async () => {
    const stored = storedFirebaseHash(salt, expected);
    expect(stored.startsWith("$firebase-scrypt$")).toBe(true);
    expect(await verifyFirebaseHash(stored, "user1password", parameters)).toBe(true);
    expect(await verifyFirebaseHash(stored, "user1Password", parameters)).toBe(false);
    expect(await verifyFirebaseHash(stored, "user1password", { ...parameters, rounds: 7 })).toBe(false);
    expect(await verifyFirebaseHash(stored, "user1password", { ...parameters, saltSeparator: "Bg==" })).toBe(false);
  });

  it("refuses parameters that are not of Firebase's form", () => {
    expect(hashParametersProblem(parameters)).toBeNull();
    expect(hashParametersProblem({ ...parameters, signerKey: "c2hvcnQ=" })).toMatch(/--hash-key/);
    expect(hashParametersProblem({ ...parameters, signerKey: "not base64!" })).toMatch(/--hash-key/);
    expect(hashParametersProblem({ ...parameters, saltSeparator: "%%" })).toMatch(/--salt-separator/);
    expect(hashParametersProblem({ ...parameters, rounds: 0 })).toMatch(/--rounds/);
    expect(hashParametersProblem({ ...parameters, rounds: 9 })).toMatch(/--rounds/);
    expect(hashParametersProblem({ ...parameters, memCost: 15 })).toMatch(/--mem-cost/);
    expect(hashParametersProblem({ ...parameters, memCost: Number.NaN })).toMatch(/--mem-cost/);
  });
});

describe("the export file", () => {
  it("refuses a cut-off file, another JSON shape and a list of something else", () => {
    const whole = JSON.stringify({ users: [{ localId: "u1", email: "a@example.tw" }] });
    expect(() => readExport(whole.slice(0, whole.length - 5))).toThrow(ExportFileError);
    expect(() => readExport(whole.slice(0, whole.length - 5))).toThrow(/截斷/);
    expect(() => readExport(JSON.stringify([{ localId: "u1" }]))).toThrow(/不是 Firebase 的帳號匯出/);
    expect(() => readExport(JSON.stringify({ accounts: [] }))).toThrow(/不是 Firebase 的帳號匯出/);
    expect(() => readExport(JSON.stringify({ users: [{ id: 1 }, { id: 2 }] }))).toThrow(/localId/);
  });

  it("reads each entry, times as numbers, and names what is wrong with a malformed one", () => {
    const { entries } = readExport(
      JSON.stringify({
        users: [
          { localId: "u1", email: "a@example.tw", createdAt: "1700000000000", providerUserInfo: [{ providerId: "password", rawId: "a@example.tw" }] },
          { localId: "u2", phoneNumber: "0912345678" },
          { localId: "u3", email: "not an address" },
        ],
      }),
    );
    expect(entries[0]).toMatchObject({ ok: true, user: { localId: "u1", createdAt: 1700000000000 } });
    expect(entries[1]).toMatchObject({ ok: false, uid: "u2", reason: expect.stringMatching(/phoneNumber/) });
    expect(entries[2]).toMatchObject({ ok: false, uid: "u3", reason: expect.stringMatching(/email/) });
  });
});
