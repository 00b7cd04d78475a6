import { getEnv } from "~/config/env.server";
import { migrateToLatest } from "./migrate.server";
import { getLogger } from "~/services/logger.server";
import { openDatabase, type DatabaseHandle } from "./connection.server";

let handle: DatabaseHandle | undefined;

/** The process-wide database, opened from the configuration on first use. */
export function getDatabase(): DatabaseHandle {
  if (!handle) {
    const env = getEnv();
    handle = openDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      sqliteSynchronous: env.SQLITE_SYNCHRONOUS,
      postgres: {
        connectMs: env.DATABASE_CONNECT_TIMEOUT_MS,
        statementMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
        poolMax: env.DATABASE_POOL_MAX,
      },
      logger: getLogger(),
    });
  }
  return handle;
}

/** Brings the schema up to date; the server awaits this before it listens. */
export async function prepareDatabase(): Promise<string[]> {
  return migrateToLatest(getDatabase());
}

export async function closeDatabase(): Promise<void> {
  await handle?.db.destroy();
  handle = undefined;
}
