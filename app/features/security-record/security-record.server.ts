import { createHash } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Dialect } from "~/db/connection.server";
import type { Database, SecurityRecordTable } from "~/db/schema";
import { outsideDeadline } from "~/services/request-context.server";

/**
 * The security record: one append-only row per security event (who, what, when, from which address and browser,
 * the outcome), kept for years (AUDIT_RETENTION_DAYS) as the evidence the audit log lines only carry for as long
 * as log files live. Each row carries the hash of the row before it, so an edited, removed or inserted row breaks
 * the chain (`npm run audit:verify`). Appends are serialized on the one head row (locked on PostgreSQL; SQLite has
 * one writer), which holds the newest hash, so a removed newest row shows too.
 */

export interface SecurityEvent {
  /** What happened: a name of the sign-in layer's audit (`sign-in`, `password-change`), `new-device`, `admin-lock`… */
  event: string;
  outcome?: "success" | "refused";
  /** The refusal's code (`INVALID_EMAIL_OR_PASSWORD`), never a message with data in it. */
  code?: string | null;
  /** Whose account it concerns. */
  userId?: string | null;
  /** Who did it, when that is someone else (an operator); otherwise the account itself. */
  actorId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  /** A few plain facts (a provider's name, an operator's reason). Never a password, code, token or link. */
  detail?: Readonly<Record<string, string | number | boolean | null>>;
  /** When it happened (ISO 8601); now by default. An event written late keeps its own time. */
  at?: string;
}

export interface RecordHandle {
  db: Kysely<Database>;
  dialect: Dialect;
}

export const genesisHash = "0".repeat(64);
const eventName = /^[a-z][a-z0-9-]{0,59}$/;
// Keys that could carry a secret are dropped, whatever their value; so are values that hold an address to follow.
const secretKey = /pass|token|code|secret|otp|link|url|key|cookie/i;
const linkValue = /[a-z][a-z0-9+.-]*:\/\//i;

function cleanDetail(detail: SecurityEvent["detail"]): string | null {
  if (!detail) return null;
  const kept = Object.entries(detail).filter(
    ([key, value]) => !secretKey.test(key) && !(typeof value === "string" && linkValue.test(value)),
  );
  return kept.length ? JSON.stringify(Object.fromEntries(kept.map(([key, value]) => [key, typeof value === "string" ? value.slice(0, 500) : value]))) : null;
}

type RowFields = Omit<SecurityRecordTable, "hash" | "prev_hash">;

/** The hash of one row: over the previous hash and every field, in a fixed order. */
export function rowHash(prevHash: string, row: RowFields): string {
  const fields = [Number(row.seq), row.at, row.user_id, row.actor_id, row.event, row.outcome, row.code, row.ip, row.user_agent, row.detail];
  return createHash("sha256").update(prevHash).update("\n").update(JSON.stringify(fields)).digest("hex");
}

async function lockedHead(trx: Transaction<Database>, dialect: Dialect) {
  return trx
    .selectFrom("security_record_head")
    .selectAll()
    .where("id", "=", 1)
    .$if(dialect === "postgres", (query) => query.forUpdate())
    .executeTakeFirstOrThrow();
}

function rowFields(seq: number, entry: SecurityEvent): RowFields {
  return {
    seq,
    at: entry.at ?? new Date().toISOString(),
    user_id: entry.userId ?? null,
    actor_id: entry.actorId ?? null,
    event: entry.event,
    outcome: entry.outcome ?? "success",
    code: entry.code?.slice(0, 100) ?? null,
    ip: entry.ip?.slice(0, 64) ?? null,
    user_agent: entry.userAgent?.slice(0, 300) ?? null,
    detail: cleanDetail(entry.detail),
  };
}

/**
 * Appends events to the record, in their order, in one transaction after the head row's lock: one read of the
 * head, one insert and one move of the head however many events one request has to record (a sign-in from a new
 * browser: the sign-in and the new device).
 */
export async function recordSecurityEvents({ db, dialect }: RecordHandle, entries: readonly SecurityEvent[]): Promise<void> {
  const wrong = entries.find((entry) => !eventName.test(entry.event));
  if (wrong) throw new Error(`security record: not an event name: ${wrong.event}`);
  if (!entries.length) return;
  await db.transaction().execute(async (trx) => {
    const head = await lockedHead(trx, dialect);
    let seq = Number(head.seq);
    let prevHash = head.hash;
    const rows = entries.map((entry) => {
      seq += 1;
      const fields = rowFields(seq, entry);
      const row = { ...fields, prev_hash: prevHash, hash: rowHash(prevHash, fields) };
      prevHash = row.hash;
      return row;
    });
    await trx.insertInto("security_record").values(rows).execute();
    await trx.updateTable("security_record_head").set({ seq, hash: prevHash }).where("id", "=", 1).execute();
  });
}

/** Appends one event to the record (its own transaction), after the head row's lock. */
export function recordSecurityEvent(handle: RecordHandle, entry: SecurityEvent): Promise<void> {
  return recordSecurityEvents(handle, [entry]);
}

/**
 * Events that could not be written yet, tried again until they are (keepSecurityEvents). In memory: they outlive a
 * lost connection, a database restart or a request's deadline, not the process; each is also in the log line of
 * its failed attempt.
 */
const pending: { handle: RecordHandle; entry: SecurityEvent; tries: number }[] = [];
let retryTimer: NodeJS.Timeout | undefined;
const retryDelayMs = (tries: number) => Math.min(30_000, 250 * 2 ** Math.min(tries, 7));

function scheduleRetry(delayMs: number, report: (error: unknown, entry: SecurityEvent) => void) {
  if (retryTimer) return;
  retryTimer = setTimeout(() => {
    retryTimer = undefined;
    void writePending(report);
  }, delayMs);
  retryTimer.unref();
}

async function writePending(report: (error: unknown, entry: SecurityEvent) => void): Promise<void> {
  while (pending.length) {
    const next = pending[0]!;
    try {
      await recordSecurityEvent(next.handle, next.entry);
      pending.shift();
    } catch (error) {
      next.tries += 1;
      report(error, next.entry);
      scheduleRetry(retryDelayMs(next.tries), report);
      return;
    }
  }
}

/**
 * Writes security events that must never be lost (issue 38), in one append: outside the request's deadline (a
 * request answered 503 at its deadline still has its events written), and when the database refuses — a lost
 * connection, a restart, a lock held too long — each event keeps its time and is written again, 250 ms, 500 ms,
 * 1 s … up to 30 s apart, in order, until it is. Resolves once written or queued; never throws. `report` hears of
 * each failed attempt.
 */
export async function keepSecurityEvents(handle: RecordHandle, entries: readonly SecurityEvent[], report: (error: unknown, entry: SecurityEvent) => void = () => {}): Promise<void> {
  if (!entries.length) return;
  const now = new Date().toISOString();
  const timed = entries.map((entry) => ({ ...entry, at: entry.at ?? now }));
  // Behind others still waiting: the chain stays in the order the events happened.
  if (pending.length) {
    for (const entry of timed) pending.push({ handle, entry, tries: 0 });
    return;
  }
  try {
    await outsideDeadline(() => recordSecurityEvents(handle, timed));
  } catch (error) {
    for (const entry of timed) {
      report(error, entry);
      pending.push({ handle, entry, tries: 1 });
    }
    scheduleRetry(retryDelayMs(1), report);
  }
}

/** How many events wait to be written (a gauge, and for tests). */
export function pendingSecurityEvents(): number {
  return pending.length;
}

/** At shutdown: one more try for what waits, within `ms`; answers how many are still unwritten. */
export async function flushSecurityEvents(ms: number): Promise<number> {
  if (!pending.length) return 0;
  clearTimeout(retryTimer);
  retryTimer = undefined;
  const report = () => {};
  await Promise.race([writePending(report), new Promise((resolve) => setTimeout(resolve, ms).unref())]);
  clearTimeout(retryTimer);
  retryTimer = undefined;
  return pending.length;
}

export interface ChainCheck {
  ok: boolean;
  /** How many rows were checked. */
  rows: number;
  /** The newest hash (worth keeping elsewhere: a rewrite of the whole chain would change it). */
  headHash: string;
  /** The first broken place, in words, and the row's number. */
  problem?: string;
  seq?: number;
}

const verifyBatch = 2_000;

/** Walks the whole chain from its anchor to its head: every row's number, link and hash, and the head itself. */
export async function verifySecurityRecord({ db }: RecordHandle): Promise<ChainCheck> {
  const head = await db.selectFrom("security_record_head").selectAll().where("id", "=", 1).executeTakeFirstOrThrow();
  let expectedSeq = Number(head.anchor_seq) + 1;
  let previous = head.anchor_hash;
  let rows = 0;
  for (;;) {
    const batch = await db.selectFrom("security_record").selectAll().where("seq", ">=", expectedSeq).orderBy("seq").limit(verifyBatch).execute();
    for (const row of batch) {
      const seq = Number(row.seq);
      const fail = (problem: string): ChainCheck => ({ ok: false, rows, headHash: head.hash, problem, seq });
      if (seq !== expectedSeq) return fail(`第 ${expectedSeq} 筆到第 ${seq - 1} 筆不見了`);
      if (row.prev_hash !== previous) return fail(`第 ${seq} 筆記下的前一筆雜湊與前一筆不符`);
      const { hash, prev_hash: _prev, ...fields } = row;
      if (rowHash(previous, fields) !== hash) return fail(`第 ${seq} 筆的內容被改過`);
      previous = hash;
      expectedSeq += 1;
      rows += 1;
    }
    if (batch.length < verifyBatch) break;
  }
  if (expectedSeq - 1 !== Number(head.seq) || previous !== head.hash) {
    return { ok: false, rows, headHash: head.hash, problem: `最後 ${Number(head.seq) - expectedSeq + 1} 筆（到第 ${Number(head.seq)} 筆）不見了`, seq: expectedSeq };
  }
  return { ok: true, rows, headHash: head.hash };
}

/**
 * Retention: removes the rows older than `days` and moves the anchor to the newest removed row's hash, in one
 * transaction under the head's lock, so the kept rows still verify. Answers how many rows went.
 */
export async function pruneSecurityRecord({ db, dialect }: RecordHandle, days: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  return db.transaction().execute(async (trx) => {
    await lockedHead(trx, dialect);
    // Rows are numbered under the lock in time order, so the old ones are a prefix of the chain.
    const last = await trx.selectFrom("security_record").select(["seq", "hash"]).where("at", "<", cutoff).orderBy("seq", "desc").limit(1).executeTakeFirst();
    if (!last) return 0;
    const removed = await trx.deleteFrom("security_record").where("seq", "<=", last.seq).executeTakeFirst();
    await trx.updateTable("security_record_head").set({ anchor_seq: last.seq, anchor_hash: last.hash }).where("id", "=", 1).execute();
    return Number(removed.numDeletedRows);
  });
}

export interface SecurityRecordRow {
  seq: number;
  at: string;
  userId: string | null;
  actorId: string | null;
  event: string;
  outcome: string;
  code: string | null;
  ip: string | null;
  userAgent: string | null;
  detail: Record<string, unknown> | null;
  hash: string;
}

function toRow(row: SecurityRecordTable): SecurityRecordRow {
  return {
    seq: Number(row.seq),
    at: row.at,
    userId: row.user_id,
    actorId: row.actor_id,
    event: row.event,
    outcome: row.outcome,
    code: row.code,
    ip: row.ip,
    userAgent: row.user_agent,
    detail: row.detail ? (JSON.parse(row.detail) as Record<string, unknown>) : null,
    hash: row.hash,
  };
}

/** One account's rows since a moment, newest first (as its subject, or as the operator who acted). */
export async function securityRecordOf({ db }: RecordHandle, userId: string, options: { since: Date; limit: number }): Promise<SecurityRecordRow[]> {
  const rows = await db
    .selectFrom("security_record")
    .selectAll()
    .where("user_id", "=", userId)
    .where("at", ">=", options.since.toISOString())
    .orderBy("seq", "desc")
    .limit(options.limit)
    .execute();
  return rows.map(toRow);
}

/** Every row from `since` (and before `until`), oldest first, in batches: the export's source. */
export async function* securityRecordSince({ db }: RecordHandle, since: Date, until?: Date): AsyncGenerator<SecurityRecordRow> {
  let after = -1;
  for (;;) {
    const batch = await db
      .selectFrom("security_record")
      .selectAll()
      .where("seq", ">", after)
      .where("at", ">=", since.toISOString())
      .$if(until !== undefined, (query) => query.where("at", "<", (until as Date).toISOString()))
      .orderBy("seq")
      .limit(verifyBatch)
      .execute();
    for (const row of batch) yield toRow(row);
    if (batch.length < verifyBatch) return;
    after = Number(batch[batch.length - 1]?.seq);
  }
}
