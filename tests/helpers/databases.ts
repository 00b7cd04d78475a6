import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, inject } from "vitest";
import pg from "pg";
import { openDatabase, type Dialect, type DatabaseHandle } from "~/db/connection.server";
import { migrateToLatest } from "~/db/migrate.server";

export interface TestDatabase {
  handle: DatabaseHandle;
  /** For code that takes a DATABASE_URL/DATA_DIR pair, e.g. a second server instance on the same data. */
  databaseUrl?: string;
  searchPath?: string;
  dataDir: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database: an SQLite file in a temp folder, or a PostgreSQL schema of its own. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-test-"));
  if (dialect === "sqlite") {
    const handle = openDatabase({ dataDir });
    await migrateToLatest(handle);
    return {
      handle,
      dataDir,
      drop: async () => {
        await handle.db.destroy();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const databaseUrl = inject("postgresUrl");
  if (!databaseUrl) throw new Error("PostgreSQL is not available");
  const searchPath = `${inject("testSchemaPrefix")}${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create schema ${searchPath}`);
  await admin.end();
  const handle = openDatabase({ databaseUrl, dataDir, searchPath });
  await migrateToLatest(handle);
  return {
    handle,
    databaseUrl,
    searchPath,
    dataDir,
    // The schema itself is dropped with the run's others when every file is done (tests/setup/postgres.ts).
    drop: async () => {
      await handle.db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The databases this project's files run on: the `unit` project runs SQLite, the `postgres` project runs
 * PostgreSQL (vitest.config.ts), so the two halves of a file run side by side as two files. Outside a project that
 * says (a bare `vitest run` of one file in a custom config), both.
 */
export function testDialects(): readonly Dialect[] {
  return (inject("testDialects") as Dialect[] | undefined) ?? ["sqlite", "postgres"];
}

/**
 * Runs a data-layer suite once per database of this project (`testDialects`). The PostgreSQL run is skipped only
 * where no server answers, and never in CI (the global setup fails instead).
 */
export function describeEachDatabase(name: string, suite: (database: () => TestDatabase) => void) {
  for (const dialect of testDialects()) {
    describe.skipIf(dialect === "postgres" && !inject("postgresUrl"))(`${name} [${dialect}]`, () => {
      let database: TestDatabase | undefined;
      beforeAll(async () => {
        database = await createTestDatabase(dialect);
      });
      afterAll(async () => {
        await database?.drop();
      });
      suite(() => {
        if (!database) throw new Error("test database not ready");
        return database;
      });
    });
  }
}

/**
 * A suite about PostgreSQL alone (its pool, its locks): it runs in the `postgres` project only, skipped only where no
 * server answers (never in CI).
 */
export function describePostgres(name: string, suite: () => void) {
  if (!testDialects().includes("postgres")) return;
  describe.skipIf(!inject("postgresUrl"))(`${name} [postgres]`, suite);
}
