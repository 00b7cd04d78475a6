import type SQLite from "better-sqlite3";
import type { CompiledQuery } from "kysely";
import type { DatabaseHandle } from "./connection.server";

/** At most this many statements are kept prepared (a reader's queries are a handful, by shape not by value). */
const maxPrepared = 64;

/**
 * Reads straight on SQLite's connection, without Kysely's connection hand-over around each query (a third of a
 * short read's time, decision 708's addendum), for a page that must not wait (decisions 712, 713). Gives the rows,
 * or undefined where it would wait or report: while a transaction holds the connection (a read there would see what
 * it has not committed; Kysely waits for its end), on PostgreSQL (a round trip is a wait), and when the read fails.
 * The caller then reads its other way, through Kysely, which waits and reports as every query does.
 */
export function straightReader(database: DatabaseHandle): <Row>(query: CompiledQuery) => Row[] | undefined {
  if (database.dialect !== "sqlite") return () => undefined;
  const raw = database.raw as SQLite.Database;
  const prepared = new Map<string, SQLite.Statement>();
  return <Row>(query: CompiledQuery) => {
    if (raw.inTransaction) return undefined;
    try {
      let statement = prepared.get(query.sql);
      if (!statement) {
        statement = raw.prepare(query.sql);
        if (prepared.size < maxPrepared) prepared.set(query.sql, statement);
      }
      return statement.all(query.parameters as unknown[]) as Row[];
    } catch {
      return undefined;
    }
  };
}
