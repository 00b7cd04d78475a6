import type { Adapter, AdapterPayload } from "oidc-provider";
import type { DatabaseHandle } from "~/db/connection.server";
import type { AppSessions } from "./app-sessions.server";

/** How often, at most, one process deletes expired rows from the database. */
const sweepEveryMs = 10 * 60_000;

/**
 * Thrown by `consume` when another request consumed the same code or refresh token first: the caller answers
 * invalid_grant (refresh-rotation.server.ts). By then the whole family (the grant, its session and every token
 * of it) has ended.
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
  /** Keeps the answer to a rotation on the refresh token it replaced, with the id of its successor. */
  keepAnswer(presentedId: string, successorId: string, body: Record<string, unknown>): Promise<void>;
  /** The answer kept on a consumed refresh token of `clientId`, while its successor is still unused and alive. */
  keptAnswer(presentedId: string, clientId: string): Promise<KeptAnswer | undefined>;
}

/**
 * Where the OpenID provider keeps its records (grants, tokens, codes, interactions, provider sessions): the
 * database (SQLite or PostgreSQL), never Redis, so a Redis restart or flush signs nobody out. Every instance sees
 * the same rows, so a token revoked or a refresh token used on one instance is refused by all of them at their
 * next request. Consuming a code or a refresh token is one conditional update: of two presenters at the same
 * moment (on one instance or two), exactly one wins, and the other ends the family. A grant also needs its
 * session row (app-sessions.server.ts): finding a grant whose session ended answers nothing, and removing a
 * grant ends its session and its whole family, and tells its app (back-channel logout).
 */
export function providerRecords(options: {
  database: DatabaseHandle;
  sessions: AppSessions;
  /** Removes an ended grant's records and tells its app (backchannel-logout.server.ts). */
  settle(grantId: string): Promise<void>;
}): ProviderRecords {
  const { db } = options.database;
  const base = databaseRecords(options.database);
  const endFamily = async (grantId: string) => {
    await options.sessions.end(grantId);
    await options.settle(grantId);
  };
  const records = (kind: string): Adapter => {
    const adapter = base(kind, endFamily);
    if (kind !== "Grant") return adapter;
    return {
      ...adapter,
      async find(id) {
        const grant = await adapter.find(id);
        return grant && (await options.sessions.isAlive(id)) ? grant : undefined;
      },
      async destroy(id) {
        await endFamily(id);
      },
    };
  };

  return Object.assign(records, {
    endFamily,
    async keepAnswer(presentedId: string, successorId: string, body: Record<string, unknown>) {
      await db
        .updateTable("oidc_record")
        .set({ successor_id: successorId, kept_answer: JSON.stringify(body) })
        .where("kind", "=", "RefreshToken")
        .where("id", "=", presentedId)
        .execute();
    },
    async keptAnswer(presentedId: string, clientId: string) {
      const row = await db
        .selectFrom("oidc_record as presented")
        .innerJoin("oidc_record as successor", (join) =>
          join.onRef("successor.id", "=", "presented.successor_id").on("successor.kind", "=", "RefreshToken"),
        )
        .select(["presented.payload", "presented.consumed_at", "presented.kept_answer", "presented.grant_id", "successor.consumed_at as successorConsumedAt", "successor.expires_at as successorExpiresAt"])
        .where("presented.kind", "=", "RefreshToken")
        .where("presented.id", "=", presentedId)
        .executeTakeFirst();
      if (!row?.kept_answer || row.consumed_at === null || row.successorConsumedAt !== null) return undefined;
      if (Number(row.successorExpiresAt) <= Date.now()) return undefined;
      if ((JSON.parse(row.payload) as AdapterPayload).clientId !== clientId) return undefined;
      if (row.grant_id && !(await records("Grant").find(row.grant_id))) return undefined;
      return { body: JSON.parse(row.kept_answer) as Record<string, unknown>, consumedAt: Number(row.consumed_at), grantId: row.grant_id };
    },
  });
}

function databaseRecords(database: DatabaseHandle) {
  const { db } = database;
  let lastSweep = 0;
  const sweep = async () => {
    if (Date.now() - lastSweep < sweepEveryMs) return;
    lastSweep = Date.now();
    await db.deleteFrom("oidc_record").where("expires_at", "<", Date.now()).execute();
  };
  const read = (row: { payload: string; expires_at: number | string; consumed_at: number | string | null } | undefined) => {
    if (!row || Number(row.expires_at) <= Date.now()) return undefined;
    const payload = JSON.parse(row.payload) as AdapterPayload;
    return row.consumed_at === null ? payload : { ...payload, consumed: Math.floor(Number(row.consumed_at) / 1000) };
  };
  const columns = ["payload", "expires_at", "consumed_at"] as const;

  return (kind: string, endFamily: (grantId: string) => Promise<void>): Adapter => ({
    async upsert(id, payload, expiresIn) {
      const values = {
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        // A device code is looked up by its user code (device-flow.server.ts); it has no uid of its own.
        uid: payload.uid ?? payload.userCode ?? null,
        expires_at: Date.now() + expiresIn * 1000,
      };
      await db
        .insertInto("oidc_record")
        .values({ kind, id, ...values, consumed_at: null })
        .onConflict((conflict) => conflict.columns(["kind", "id"]).doUpdateSet(values))
        .execute();
      await sweep();
    },
    find: async (id) => read(await db.selectFrom("oidc_record").select(columns).where("kind", "=", kind).where("id", "=", id).executeTakeFirst()),
    findByUid: async (uid) => read(await db.selectFrom("oidc_record").select(columns).where("kind", "=", kind).where("uid", "=", uid).executeTakeFirst()),
    findByUserCode: async (userCode) => read(await db.selectFrom("oidc_record").select(columns).where("kind", "=", kind).where("uid", "=", userCode).executeTakeFirst()),
    /**
     * One conditional update: only the request that finds the row unconsumed marks it. The provider checked
     * `consumed` just before, so a request that changes nothing lost a race to another presenter of the same
     * code or token: the family ends and the request is refused.
     */
    async consume(id) {
      const result = await db
        .updateTable("oidc_record")
        .set({ consumed_at: Date.now() })
        .where("kind", "=", kind)
        .where("id", "=", id)
        .where("consumed_at", "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return;
      const row = await db.selectFrom("oidc_record").select("grant_id").where("kind", "=", kind).where("id", "=", id).executeTakeFirst();
      if (row?.grant_id) await endFamily(row.grant_id);
      throw new TokenAlreadyUsed(kind, row?.grant_id ?? null);
    },
    async destroy(id) {
      await db.deleteFrom("oidc_record").where("kind", "=", kind).where("id", "=", id).execute();
    },
    async revokeByGrantId(grantId) {
      await db.deleteFrom("oidc_record").where("kind", "=", kind).where("grant_id", "=", grantId).execute();
    },
  });
}
