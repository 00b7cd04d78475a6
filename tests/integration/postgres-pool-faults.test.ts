import { sql } from "kysely";
import type pg from "pg";
import { afterEach, expect, inject, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/connection.server";
import { describePostgres } from "~tests/helpers/databases";
import { startFaultProxy, type FaultProxy } from "~tests/helpers/fault-proxy";

/**
 * The PostgreSQL pool behind a fault proxy: a failure to get a connection reaches the query-error report (the host
 * answers 503 with it), and a connection whose answer was lost is destroyed instead of handed out again.
 */
describePostgres("the PostgreSQL pool under faults", () => {
  const target = new URL(inject("postgresUrl") ?? "postgres://postgres@127.0.0.1:5432/test");
  let proxy: FaultProxy;
  let handle: DatabaseHandle;
  const reported: unknown[] = [];

  async function open() {
    proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = new URL(target);
    url.port = String(proxy.port);
    handle = openDatabase({
      databaseUrl: url.toString(),
      dataDir: "unused",
      postgres: { statementMs: 800, connectMs: 1_000 },
      reporting: { onQueryError: (error) => reported.push(error) },
    });
  }
  const ask = () => sql<{ answer: number }>`select 1 as answer`.execute(handle.db).then(() => "ok", (error: Error) => error.message);

  afterEach(async () => {
    reported.length = 0;
    await handle.db.destroy();
    await proxy.close();
  });

  it("reports a refused connection as a query error", async () => {
    await open();
    await proxy.refuse();
    expect(await ask()).toMatch(/ECONNREFUSED|connect/);
    expect(reported.map(String).join()).toMatch(/ECONNREFUSED|connect/);
  });

  it("destroys the connections whose answers were dropped, so every query after the peer is back succeeds", async () => {
    await open();
    expect(await Promise.all([ask(), ask(), ask()])).toEqual(["ok", "ok", "ok"]);
    proxy.discard();
    // The pool names the failure by type (decision 605), with the driver's words after it.
    expect(await Promise.all([ask(), ask(), ask()])).toEqual(Array(3).fill("PostgreSQL is unavailable: Query read timeout"));
    await proxy.restore();
    const after = await Promise.all(Array.from({ length: 10 }, ask));
    expect(after).toEqual(Array(10).fill("ok"));
    // Errors PostgreSQL sends itself leave the connection in step: it goes back to the pool.
    const pool = handle.raw as pg.Pool;
    const before = pool.totalCount;
    await sql`select 1/0`.execute(handle.db).catch(() => undefined);
    expect(pool.totalCount).toBe(before);
    expect(await ask()).toBe("ok");
  });
});
