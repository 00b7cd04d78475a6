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
 * Runs a data-layer suite once per database. The PostgreSQL run is skipped only where no server answers,
 * and never in CI (the global setup fails instead).
 */
export function describeEachDatabase(name: string, suite: (database: () => TestDatabase) => void) {
  for (const dialect of ["sqlite", "postgres"] as const) {
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
