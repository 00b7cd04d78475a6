import { randomUUID } from "node:crypto";
import SQLite from "better-sqlite3";
import { afterEach, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/db/connection.server";
import { recordAuditEvent } from "~/features/auth/auth-logging.server";
import { pendingSecurityEvents, verifySecurityRecord } from "~/features/security-record/security-record.server";
import { runWithRequestContext, throwIfPastDeadline } from "~/services/request-context.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startFaultProxy, type FaultProxy } from "~tests/helpers/fault-proxy";

/**
 * A security event is never lost (issue 38): three sign-in events met a request's deadline and were only logged
 * ("security record not written"). The sign-in layer's writer (recordAuditEvent) now writes outside the request's
 * deadline, and an event the database refuses — its connection killed in the middle of the request — is kept and
 * written again once the database answers, with the time it happened and the chain intact.
 */
describeEachDatabase("security record: nothing lost at a deadline or a lost connection", (database) => {
  const opened: DatabaseHandle[] = [];
  let proxy: FaultProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    for (const handle of opened.splice(0)) await handle.db.destroy();
  });

  /** A second handle on the test's database, as the site opens it, optionally through a fault proxy (PostgreSQL). */
  async function siteHandle(options: { throughProxy?: boolean } = {}) {
    const { databaseUrl, searchPath, dataDir } = database();
    let url = databaseUrl;
    if (databaseUrl && options.throughProxy) {
      const target = new URL(databaseUrl);
      proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
      target.port = String(proxy.port);
      url = target.toString();
    }
    const handle = openDatabase({ databaseUrl: url, dataDir, searchPath, postgres: { connectMs: 1_000, statementMs: 2_000 }, reporting: { beforeConnection: throwIfPastDeadline } });
    opened.push(handle);
    return handle;
  }

  const rowsOf = (userId: string) => database().handle.db.selectFrom("security_record").selectAll().where("user_id", "=", userId).execute();
  async function eventually<T>(read: () => Promise<T[]>, ms = 15_000): Promise<T[]> {
    const until = Date.now() + ms;
    for (;;) {
      const rows = await read();
      if (rows.length || Date.now() > until) return rows;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const inRequest = <T>(deadline: AbortSignal | undefined, work: () => Promise<T>) => runWithRequestContext({ id: randomUUID(), errors: [], deadline }, work);

  it("writes the event of a request already past its deadline", async () => {
    const handle = await siteHandle();
    const userId = randomUUID();
    const late = AbortSignal.abort(new Error("no answer within 5000 ms"));
    await inRequest(late, () => recordAuditEvent(handle, { event: "sign-in", outcome: "refused", code: "INVALID_EMAIL_OR_PASSWORD", userId, ip: "192.0.2.7" }));
    expect(await rowsOf(userId)).toEqual([expect.objectContaining({ event: "sign-in", outcome: "refused", ip: "192.0.2.7" })]);
  });

  it("writes the event after its database connection was killed in the middle of the request, at the time it happened", async () => {
    const handle = await siteHandle({ throughProxy: true });
    const userId = randomUUID();
    // The request has its connection (PostgreSQL) or the file (SQLite) in use when the database goes away.
    await handle.db.selectFrom("security_record_head").selectAll().execute();
    let blocker: SQLite.Database | undefined;
    if (proxy) await proxy.refuse();
    else {
      // SQLite has no connection to cut: another process holds the write lock past the wait allowed for it.
      (handle.raw as SQLite.Database).pragma("busy_timeout = 200");
      blocker = new SQLite(`${database().dataDir}/app.db`);
      blocker.exec("begin exclusive");
    }
    const happened = new Date().toISOString();
    await inRequest(undefined, () => recordAuditEvent(handle, { event: "password-change", userId, ip: "192.0.2.8" }));
    // Not written yet, and not lost: waiting.
    expect(await rowsOf(userId)).toEqual([]);
    expect(pendingSecurityEvents()).toBeGreaterThan(0);

    if (proxy) await proxy.restore();
    else blocker!.exec("rollback");
    blocker?.close();
    const rows = await eventually(() => rowsOf(userId));
    expect(rows).toEqual([expect.objectContaining({ event: "password-change", outcome: "success", ip: "192.0.2.8" })]);
    expect(Math.abs(new Date(rows[0]!.at).getTime() - new Date(happened).getTime())).toBeLessThan(1_000);
    // Another connection sees the row once PostgreSQL commits, a moment before the writer hears its commit back
    // (through the proxy) and takes the event off its queue: the queue empties then.
    for (const until = Date.now() + 5_000; pendingSecurityEvents() > 0 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pendingSecurityEvents()).toBe(0);
    expect((await verifySecurityRecord(database().handle)).ok).toBe(true);
  }, 30_000);
});
