import { describe, expect, it } from "vitest";
import { DependencyUnavailableError, isDependencyUnavailable, isUniqueViolation } from "./dependency-errors.server";

// Told apart by type and code, whatever the words: a message that merely sounds like an outage is a bug (500).
describe("isDependencyUnavailable", () => {
  const coded = (code: string) => Object.assign(new Error("any words"), { code });

  it("recognises our own type, also as the cause of another error", () => {
    expect(isDependencyUnavailable(new DependencyUnavailableError("redis", "Redis did not answer within 2000 ms"))).toBe(true);
    expect(isDependencyUnavailable(new Error("wrapped", { cause: new DependencyUnavailableError("postgres", "x") }))).toBe(true);
  });

  it("recognises system, PostgreSQL and SQLite codes", () => {
    for (const code of ["ECONNREFUSED", "ENOSPC", "57P01", "57014", "08006", "53100", "53300", "SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_FULL", "SQLITE_IOERR_WRITE"]) {
      expect(isDependencyUnavailable(coded(code)), code).toBe(true);
    }
  });

  it("does not read messages, and leaves a client's or a bug's errors alone", () => {
    expect(isDependencyUnavailable(new Error("Connection is closed."))).toBe(false);
    expect(isDependencyUnavailable(new Error("Redis did not answer within 2000 ms"))).toBe(false);
    for (const code of ["23505", "SQLITE_CONSTRAINT_UNIQUE", "42P01", "ERR_INVALID_ARG_TYPE"]) expect(isDependencyUnavailable(coded(code)), code).toBe(false);
    expect(isUniqueViolation(coded("23505"))).toBe(true);
  });
});
