import { getEnv } from "~/config/env.server";
import { migrateToLatest } from "./migrate.server";
import { openDatabase, type DatabaseHandle, type DatabaseReporting } from "./connection.server";

let handle: DatabaseHandle | undefined;
let reporting: DatabaseReporting | undefined;

/** The host hands in its logger and request context before the database is first opened. */
export function setDatabaseReporting(given: DatabaseReporting): void {
  reporting = given;
}
const migrated = new WeakMap<DatabaseHandle, { promise: Promise<void>; resolve: () => void }>();

/** Resolves once the process-wide database is migrated; other handles (tests migrate their own) at once. */
export function whenMigrated(database: DatabaseHandle): Promise<void> {
  return migrated.get(database)?.promise ?? Promise.resolve();
}

/** The process-wide database, opened from the configuration on first use. */
export function getDatabase(): DatabaseHandle {
  if (!handle) {
    const env = getEnv();
    handle = openDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      sqliteSynchronous: env.SQLITE_SYNCHRONOUS,
      sqliteSharedWithWorkers: env.WEB_CONCURRENCY_WORKER > 0,
      postgres: {
        connectMs: env.DATABASE_CONNECT_TIMEOUT_MS,
        statementMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
        poolMax: env.DATABASE_POOL_MAX,
      },
      reporting,
    });
    let resolve = () => {};
    const promise = new Promise<void>((done) => (resolve = done));
    migrated.set(handle, { promise, resolve });
  }
  return handle;
}

/** Brings the schema up to date; the server awaits this before it listens. */
export async function prepareDatabase(): Promise<string[]> {
  const applied = await migrateToLatest(getDatabase());
  migrated.get(getDatabase())?.resolve();
  return applied;
}

export async function closeDatabase(): Promise<void> {
  await handle?.db.destroy();
  handle = undefined;
}
