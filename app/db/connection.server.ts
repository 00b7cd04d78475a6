import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { Database } from "./schema";

export type Dialect = "sqlite" | "postgres";

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL: the schema this handle works in; SQLite has none. */
  schema?: string;
  /** The raw driver object, for libraries that want it (Better Auth accepts either). */
  raw: SQLite.Database | pg.Pool;
}

export interface ConnectOptions {
  /** postgres://… selects PostgreSQL; otherwise an SQLite file under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL only: schema to use (tests isolate themselves in their own schema). */
  searchPath?: string;
}

export function openDatabase(options: ConnectOptions): DatabaseHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: "postgres", schema: options.searchPath ?? "public", raw: pool };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(options.dataDir, "app.db"));
  // WAL lets readers run while one writer commits; busy_timeout waits instead of failing under contention.
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }), dialect: "sqlite", raw: sqlite };
}
