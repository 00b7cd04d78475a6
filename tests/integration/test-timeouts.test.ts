import { describe, expect, it } from "vitest";
import { maxTimeoutScale, scaledTimeout, timeoutScale } from "~tests/helpers/machine-load";
import { isolatedTestFiles, postgresTestFiles } from "~tests/setup/test-files";

describe("timeouts that follow the machine's load", () => {
  it("never shortens a timeout: an idle or lightly loaded machine keeps the written one", () => {
    expect(timeoutScale(0, 2, "")).toBe(1);
    expect(timeoutScale(1.9, 2, "")).toBe(1);
    expect(scaledTimeout(60_000, timeoutScale(0.2, 2, ""))).toBe(60_000);
    expect(scaledTimeout(10_000, 1)).toBe(10_000);
  });

  it("stretches by the load per core on a busy machine, up to a cap past which a wait is a hang", () => {
    expect(timeoutScale(5, 2, "")).toBe(2.5);
    expect(scaledTimeout(60_000, timeoutScale(5, 2, ""))).toBe(150_000);
    expect(timeoutScale(15, 2, "")).toBe(maxTimeoutScale);
    expect(timeoutScale(15, 16, "")).toBe(1);
  });

  it("takes TEST_TIMEOUT_SCALE outright (the figure the run's config read once), but never below 1", () => {
    expect(timeoutScale(15, 2, "1")).toBe(1);
    expect(timeoutScale(0, 2, "2")).toBe(2);
    expect(timeoutScale(0, 2, "0.5")).toBe(1);
  });
});

describe("the SQLite and PostgreSQL projects", () => {
  it("run every data-layer file on PostgreSQL, found from the files themselves, and leave PostgreSQL-only files out of SQLite", () => {
    const { files, only } = postgresTestFiles();
    expect(files).toContain("tests/integration/family.test.ts");
    expect(files).toContain("app/features/dev-blog/posts.server.test.ts");
    expect(files).not.toContain("tests/integration/auth-endpoints.test.ts");
    expect(only).toEqual(["tests/integration/postgres-pool-faults.test.ts"]);
  });

  it("gives a file that replaces modules for itself a module graph of its own, found by reading it", () => {
    const isolated = isolatedTestFiles();
    expect(isolated).toContain("app/features/auth/viewer.server.test.ts");
    expect(isolated).not.toContain("tests/integration/family.test.ts");
    expect(isolated).not.toContain("tests/integration/test-timeouts.test.ts");
  });
});
