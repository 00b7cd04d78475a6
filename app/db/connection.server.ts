import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type DatabaseConnection, type Driver, type LogEvent, type SqliteDatabase } from "kysely";
import pg from "pg";
import type { Logger } from "pino";
import { DependencyUnavailableError, unavailableBecause } from "~/lib/dependency-unavailable";
import type { Database } from "./schema";

/** Where the database reports trouble; the host passes the site's logger and request context in. */
export interface DatabaseReporting {
  /** A dropped connection (the pool reconnects by itself). */
  logger?: Pick<Logger, "warn">;
  /** Every failed query, so the host can answer 503 when the database is away. */
  onQueryError?: (error: unknown) => void;
  /** Called before a connection is taken from the pool; throws once the request's deadline has passed. */
  beforeConnection?: () => void;
}

export type Dialect = "sqlite" | "postgres";

export interface DatabaseHandle {
  /**
   * The one query builder of the process, also the one Better Auth queries through. On SQLite the app's
   * writes and Better Auth's so queue behind one connection and never share a transaction
   * (docs/decisions/602-sqlite-one-writer.md).
   */
  db: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL: the schema this handle works in; SQLite has none. */
  schema?: string;
  /** The raw driver object (a better-sqlite3 database or a pg pool). */
  raw: SQLite.Database | pg.Pool;
  /**
   * PostgreSQL: a handle of one connection for migrating, whose statements may take MIGRATION_STATEMENT_MS: the
   * migration lock waits for another instance's migration (a rolling start), and a migration may rewrite a table.
   */
  openForMigrations?: () => DatabaseHandle;
}

/** How long one statement of a migration, or the wait for another instance's, may take. */
export const MIGRATION_STATEMENT_MS = 10 * 60_000;

export interface PostgresTimeouts {
  /** Connecting, including the server's start-up answer. */
  connectMs: number;
  /** One statement, checked by the server and, should the server stop answering, by the client. */
  statementMs: number;
  /** A transaction left idle by a crashed request is ended by the server after this long. */
  idleInTransactionMs: number;
  poolMax: number;
}

export const defaultPostgresTimeouts: PostgresTimeouts = { connectMs: 3_000, statementMs: 3_000, idleInTransactionMs: 10_000, poolMax: 10 };

export interface ConnectOptions {
  /** postgres://… selects PostgreSQL; otherwise an SQLite file under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL only: schema to use (tests isolate themselves in their own schema). */
  searchPath?: string;
  postgres?: Partial<PostgresTimeouts>;
  /** SQLite only: NORMAL (default) survives a killed process; FULL also a power cut, at a cost (decision 602). */
  sqliteSynchronous?: "NORMAL" | "FULL";
  /** SQLite only: other processes (cluster workers) write to the same file; transactions take the write lock first. */
  sqliteSharedWithWorkers?: boolean;
  reporting?: DatabaseReporting;
}

function queryLog(reporting: DatabaseReporting | undefined) {
  return (event: LogEvent) => {
    if (event.level === "error") reporting?.onQueryError?.(event.error);
  };
}

export function openDatabase(options: ConnectOptions): DatabaseHandle {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  fs.mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(options.dataDir, "app.db"));
  // WAL lets readers run while one writer commits. With synchronous=NORMAL a commit is in the WAL file before it
  // is acknowledged, so it survives kill -9; FULL also syncs it to the disk (decision 602 has the figures).
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma(`synchronous = ${options.sqliteSynchronous ?? "NORMAL"}`);
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const database = keepingStatements(sqlite);
  const dialect = options.sqliteSharedWithWorkers ? new WriterFirstSqliteDialect({ database }) : new SqliteDialect({ database });
  return { db: new Kysely<Database>({ dialect, log: queryLog(options.reporting) }), dialect: "sqlite", raw: sqlite };
}

/** Bounded: a query over a list of values has one text per length of the list. */
const STATEMENTS_KEPT = 500;

/**
 * Kysely prepares every query anew, and compiling cost as much main-thread time as running a sign-in's statements
 * (docs/performance.md, *Sign-in at one hash*). Compiled statements are kept by their SQL, the least recently used
 * dropped first. Sharing one is safe: Kysely runs one query at a time on the one SQLite connection (a stream holds
 * it to the end), and SQLite recompiles a kept statement by itself after a schema change.
 */
function keepingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = kept.get(sql);
      if (statement) kept.delete(sql);
      else {
        statement = sqlite.prepare(sql);
        if (kept.size >= STATEMENTS_KEPT) kept.delete(kept.keys().next().value!);
      }
      kept.set(sql, statement);
      return statement;
    },
  };
}

/**
 * SQLite shared by several processes (decision 703): a transaction that reads first and writes later cannot take
 * the write lock once another process has written (SQLITE_BUSY at once, busy_timeout does not apply — decision
 * 602). `begin immediate` takes it at the start, so a transaction waits (busy_timeout) instead of failing.
 */
class WriterFirstSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw("begin immediate"));
    };
    return driver;
  }
}

function openPostgres(connectionString: string, options: ConnectOptions): DatabaseHandle {
  const timeouts = { ...defaultPostgresTimeouts, ...options.postgres };
  const serverSettings = [
    `-c statement_timeout=${timeouts.statementMs}`,
    `-c idle_in_transaction_session_timeout=${timeouts.idleInTransactionMs}`,
    ...(options.searchPath ? [`-c search_path=${options.searchPath}`] : []),
  ];
  const pool = new pg.Pool({
    connectionString,
    max: timeouts.poolMax,
    connectionTimeoutMillis: timeouts.connectMs,
    // The client gives up just after the server would have: a server that stopped answering still frees us,
    // and a request meets at most one such wait before it fails (503 well within 5 s).
    query_timeout: timeouts.statementMs + 500,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    options: serverSettings.join(" "),
  });
  // A restart or fail-over of PostgreSQL ends our connections: the pool drops them and connects anew on the
  // next query. Without these listeners the 'error' event would end the process.
  const report = (error: Error) => options.reporting?.logger?.warn({ err: error }, "PostgreSQL connection lost; the pool reconnects");
  pool.on("error", report);
  pool.on("connect", (client) => client.on("error", report));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: reportingPool(pool, options.reporting) }), log: queryLog(options.reporting) });
  const openForMigrations = () => openPostgres(connectionString, { ...options, postgres: { ...timeouts, statementMs: MIGRATION_STATEMENT_MS, poolMax: 1 } });
  return { db, dialect: "postgres", schema: options.searchPath ?? "public", raw: pool, openForMigrations };
}

/**
 * A failure of the connection rather than of the statement (pg and its pool raise plain errors for a refused or
 * silent server, a read timeout, a connection ended): the PostgreSQL boundary names it by type for the host (503).
 */
function unreachable(error: unknown): unknown {
  if (error instanceof pg.DatabaseError || error instanceof DependencyUnavailableError) return error;
  return new DependencyUnavailableError("postgres", unavailableBecause("PostgreSQL is unavailable", error), { cause: error });
}

/**
 * The pool as Kysely sees it, with three duties its query log cannot take on:
 * - a failure to get a connection (PostgreSQL refusing or silent while the pool opens a new one) is reported like
 *   a failed query, so the request answers 503 with the cause in its log line instead of a bare 500;
 * - a connection whose query failed on our side (the client's read timeout, a broken socket) is destroyed, not
 *   returned: its late answer would otherwise be read as the next query's. Errors PostgreSQL itself sent
 *   (a statement timeout, a unique key) leave the connection in step and it goes back as usual;
 * - those failures of the connection reach Kysely as a DependencyUnavailableError.
 */
function reportingPool(pool: pg.Pool, reporting: DatabaseReporting | undefined) {
  // Per pooled client, from its checkout to its release: the error that left it out of step, if any.
  const outOfStep = new WeakMap<pg.PoolClient, Error | null>();
  const watch = (client: pg.PoolClient) => {
    // Through the prototype at each call, not a copy bound at the first checkout: whatever instruments pg's
    // Client (a tracer, the statement-budget test) then sees every query of every pooled client.
    const query = (...args: unknown[]) => (pg.Client.prototype.query as (...all: unknown[]) => unknown).apply(client, args);
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const result = query(...args);
      if (!(result instanceof Promise)) return result;
      return result.catch((error: unknown) => {
        if (error instanceof pg.DatabaseError) throw error;
        outOfStep.set(client, error instanceof Error ? error : new Error(String(error)));
        throw unreachable(error);
      });
    };
  };
  return {
    async connect() {
      let client: pg.PoolClient;
      reporting?.beforeConnection?.();
      try {
        client = await pool.connect();
      } catch (error) {
        const failure = unreachable(error);
        reporting?.onQueryError?.(failure);
        throw failure;
      }
      if (!outOfStep.has(client)) watch(client);
      outOfStep.set(client, null);
      // The pool hands each checkout a new `release`; Kysely calls it with `false` unless it discards the client.
      const release = client.release.bind(client);
      client.release = (destroy?: Error | boolean) => release(destroy || outOfStep.get(client) || undefined);
      return client;
    },
    end: () => pool.end(),
  };
}
