import type { Adapter, AdapterPayload } from "oidc-provider";
import type { DatabaseHandle } from "~/db/connection.server";
import type { AppSessions } from "./app-sessions.server";
import { forgetReads, heldWrites, holdWrites, readsOfThisRequest, type HeldRow, type RecordRow } from "./request-records.server";

/** How often, at most, one process deletes expired rows from the database. */
const sweepEveryMs = 10 * 60_000;

/** The kinds read together with their grant and its session row, which the provider looks up right after them. */
const kindsWithGrant = new Set(["AccessToken", "RefreshToken", "AuthorizationCode"]);

/**
 * Thrown when another request consumed the same code or refresh token first: the caller answers invalid_grant
 * (refresh-rotation.server.ts). By then the whole family (the grant, its session and every token of it) has ended.
 */
export class TokenAlreadyUsed extends Error {
  override name = "TokenAlreadyUsed";
  constructor(readonly kind: string, readonly grantId: string | null) {
    super(`${kind} already used`);
  }
}

/** A token answer kept for the previous refresh token's grace (refresh-rotation.server.ts). */
export interface KeptAnswer {
  body: Record<string, unknown>;
  /** When the presented token was consumed, in ms since 1970. */
  consumedAt: number;
  grantId: string | null;
}

export interface ProviderRecords {
  (kind: string): Adapter;
  /** Ends a grant's whole family: the grant, its session row and every code and token issued under it. */
  endFamily(grantId: string): Promise<void>;
  /** The answer kept on a consumed refresh token of `clientId`, while its successor is still unused and alive. */
  keptAnswer(presentedId: string, clientId: string): Promise<KeptAnswer | undefined>;
  /**
   * A refresh token's rotation: `rotate` (the provider's handler, answering the token response) runs with its
   * writes held back, which are then made in two statements — the new tokens, then the presented token consumed
   * (only if no one consumed it first) with the answer kept for the grace. A lost race ends the family and
   * throws TokenAlreadyUsed; a failed `rotate` writes nothing.
   */
  rotation(rotate: () => Promise<Record<string, unknown>>): Promise<void>;
}

/**
 * Where the OpenID provider keeps its records (grants, tokens, codes, interactions, provider sessions): the
 * database (SQLite or PostgreSQL), never Redis, so a Redis restart or flush signs nobody out. Every instance sees
 * the same rows, so a token revoked or a refresh token used on one instance is refused by all of them at their
 * next request. Consuming a code or a refresh token is one conditional update: of two presenters at the same
 * moment (on one instance or two), exactly one wins, and the other ends the family (a device code's loser only
 * loses: device-polls.server.ts). A grant also needs its
 * session row (app-sessions.server.ts): finding a grant whose session ended answers nothing, and removing a
 * grant ends its session and its whole family, and tells its app (back-channel logout).
 *
 * A token is read with its grant and the grant's session row in one query, and a request that then looks the
 * grant up is answered from that read (request-records.server.ts): a refresh is five statements, userinfo three.
 */
export function providerRecords(options: {
  database: DatabaseHandle;
  sessions: AppSessions;
  /** Removes an ended grant's records and tells its app (backchannel-logout.server.ts). */
  settle(grantId: string): Promise<void>;
}): ProviderRecords {
  const { db } = options.database;
  const { sessions } = options;
  const endFamily = async (grantId: string) => {
    forgetReads();
    await sessions.end(grantId);
    await options.settle(grantId);
  };
  let lastSweep = 0;
  const sweep = async () => {
    if (Date.now() - lastSweep < sweepEveryMs) return;
    lastSweep = Date.now();
    await db.deleteFrom("oidc_record").where("expires_at", "<", Date.now()).execute();
  };
  /** A row as the provider wants it: nothing once expired, and `consumed` in seconds once consumed. */
  const payloadOf = (row: RecordRow | null | undefined) => {
    if (!row || Number(row.expires_at) <= Date.now()) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    return row.consumed_at === null ? payload : { ...payload, consumed: Math.floor(Number(row.consumed_at) / 1000) };
  };

  /** A token with its grant, the grant's session row and (a refresh token's) successor, in one query. */
  const readToken = async (kind: string, id: string) => {
    const row = await db
      .selectFrom("oidc_record as token")
      .leftJoin("oidc_record as token_grant", (join) => join.onRef("token_grant.id", "=", "token.grant_id").on("token_grant.kind", "=", "Grant"))
      .leftJoin("session", "session.id", "token.grant_id")
      .leftJoin("oidc_record as successor", (join) => join.onRef("successor.id", "=", "token.successor_id").on("successor.kind", "=", kind))
      .select([
        "token.payload", "token.expires_at", "token.consumed_at", "token.grant_id", "token.kept_answer",
        "token_grant.payload as grantPayload", "token_grant.expires_at as grantExpiresAt", "token_grant.consumed_at as grantConsumedAt",
        "session.expiresAt as sessionExpiresAt", "session.createdAt as sessionCreatedAt",
        "successor.consumed_at as successorConsumedAt", "successor.expires_at as successorExpiresAt",
      ])
      .where("token.kind", "=", kind)
      .where("token.id", "=", id)
      .executeTakeFirst();
    const reads = readsOfThisRequest();
    reads?.rows.set(`${kind}:${id}`, row ?? null);
    if (row?.grant_id) {
      const grantHolds = row.grantPayload !== null && sessions.holds({ expiresAt: row.sessionExpiresAt, createdAt: row.sessionCreatedAt });
      reads?.rows.set(`Grant:${row.grant_id}`, grantHolds ? { payload: row.grantPayload!, expires_at: row.grantExpiresAt!, consumed_at: row.grantConsumedAt } : null);
    }
    return row;
  };
  /** A grant with its session row in one query: one whose session ended is not found. */
  const readGrant = async (id: string) => {
    const row = await db
      .selectFrom("oidc_record as token_grant")
      .leftJoin("session", "session.id", "token_grant.id")
      .select(["token_grant.payload", "token_grant.expires_at", "token_grant.consumed_at", "session.expiresAt", "session.createdAt"])
      .where("token_grant.kind", "=", "Grant")
      .where("token_grant.id", "=", id)
      .executeTakeFirst();
    const found = row && sessions.holds(row) ? row : null;
    readsOfThisRequest()?.rows.set(`Grant:${id}`, found);
    return found;
  };
  /** Another presenter consumed `id` first: its family ends. */
  const refuseSecondPresenter = async (kind: string, id: string): Promise<never> => {
    const row = await db.selectFrom("oidc_record").select("grant_id").where("kind", "=", kind).where("id", "=", id).executeTakeFirst();
    if (row?.grant_id) await endFamily(row.grant_id);
    throw new TokenAlreadyUsed(kind, row?.grant_id ?? null);
  };
  const writeRows = async (rows: HeldRow[]) => {
    forgetReads();
    await db
      .insertInto("oidc_record")
      .values(rows.map((row) => ({ ...row, consumed_at: null })))
      .onConflict((conflict) =>
        conflict.columns(["kind", "id"]).doUpdateSet((update) => ({
          payload: update.ref("excluded.payload"),
          grant_id: update.ref("excluded.grant_id"),
          uid: update.ref("excluded.uid"),
          expires_at: update.ref("excluded.expires_at"),
        })),
      )
      .execute();
    await sweep();
  };

  const records = (kind: string): Adapter => ({
    async upsert(id, payload, expiresIn) {
      const row: HeldRow = {
        kind,
        id,
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        // A device code is looked up by its user code (device-flow.server.ts); it has no uid of its own.
        uid: payload.uid ?? payload.userCode ?? null,
        expires_at: Date.now() + expiresIn * 1000,
      };
      const held = heldWrites();
      if (held) held.rows.set(`${kind}:${id}`, row);
      else await writeRows([row]);
    },
    async find(id) {
      const held = heldWrites()?.rows.get(`${kind}:${id}`);
      if (held) return payloadOf({ ...held, consumed_at: null });
      const known = readsOfThisRequest()?.rows.get(`${kind}:${id}`);
      if (known !== undefined) return payloadOf(known);
      if (kind === "Grant") return payloadOf(await readGrant(id));
      if (kindsWithGrant.has(kind)) return payloadOf(await readToken(kind, id));
      return payloadOf(await db.selectFrom("oidc_record").select(["payload", "expires_at", "consumed_at"]).where("kind", "=", kind).where("id", "=", id).executeTakeFirst());
    },
    findByUid: async (uid) => payloadOf(await db.selectFrom("oidc_record").select(["payload", "expires_at", "consumed_at"]).where("kind", "=", kind).where("uid", "=", uid).executeTakeFirst()),
    findByUserCode: async (userCode) => payloadOf(await db.selectFrom("oidc_record").select(["payload", "expires_at", "consumed_at"]).where("kind", "=", kind).where("uid", "=", userCode).executeTakeFirst()),
    /**
     * One conditional update: only the request that finds the row unconsumed marks it. The provider checked
     * `consumed` just before, so a request that changes nothing lost a race to another presenter of the same
     * code or token: the family ends and the request is refused. During a rotation, held until its end.
     */
    async consume(id) {
      const held = heldWrites();
      if (held && kind === "RefreshToken") {
        held.consumedRefreshToken = id;
        return;
      }
      forgetReads();
      const result = await db
        .updateTable("oidc_record")
        .set({ consumed_at: Date.now() })
        .where("kind", "=", kind)
        .where("id", "=", id)
        .where("consumed_at", "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return;
      // Two polls of one tablet at once: the winner keeps its sign-in (device-polls.server.ts answers slow_down).
      if (kind === "DeviceCode") throw new TokenAlreadyUsed(kind, null);
      await refuseSecondPresenter(kind, id);
    },
    async destroy(id) {
      if (kind === "Grant") return endFamily(id);
      forgetReads();
      await db.deleteFrom("oidc_record").where("kind", "=", kind).where("id", "=", id).execute();
    },
    async revokeByGrantId(grantId) {
      forgetReads();
      await db.deleteFrom("oidc_record").where("kind", "=", kind).where("grant_id", "=", grantId).execute();
    },
  });

  return Object.assign(records, {
    endFamily,
    async keptAnswer(presentedId: string, clientId: string) {
      const row = await readToken("RefreshToken", presentedId);
      if (!row?.kept_answer || row.consumed_at === null || row.successorExpiresAt === null || row.successorConsumedAt !== null) return undefined;
      if (Number(row.successorExpiresAt) <= Date.now()) return undefined;
      if ((JSON.parse(row.payload) as AdapterPayload).clientId !== clientId) return undefined;
      if (row.grant_id && !(await records("Grant").find(row.grant_id))) return undefined;
      return { body: JSON.parse(row.kept_answer) as Record<string, unknown>, consumedAt: Number(row.consumed_at), grantId: row.grant_id };
    },
    async rotation(rotate: () => Promise<Record<string, unknown>>) {
      const { held, answer } = await holdWrites(rotate);
      if (held.rows.size > 0) await writeRows([...held.rows.values()]);
      const presented = held.consumedRefreshToken;
      if (!presented) return;
      const successor = typeof answer.refresh_token === "string" && answer.refresh_token !== presented ? answer.refresh_token : null;
      const result = await db
        .updateTable("oidc_record")
        .set({ consumed_at: Date.now(), successor_id: successor, kept_answer: successor ? JSON.stringify(answer) : null })
        .where("kind", "=", "RefreshToken")
        .where("id", "=", presented)
        .where("consumed_at", "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) await refuseSecondPresenter("RefreshToken", presented);
    },
  });
}
