import type { Redis } from "ioredis";
import type { Adapter, AdapterPayload } from "oidc-provider";
import type { DatabaseHandle } from "~/db/connection.server";
import type { AppSessions } from "./app-sessions.server";

/** How often, at most, one process deletes expired rows from the database. */
const sweepEveryMs = 10 * 60_000;

/**
 * Where the OpenID provider keeps its records (grants, tokens, codes, interactions, provider sessions): Redis when
 * it is configured, else the database. Either way every instance sees the same records, so a token revoked or a
 * refresh token used on one instance is refused by all of them at their next request. A grant also needs its
 * session row (app-sessions.server.ts): finding a grant whose session ended answers nothing, and removing a grant
 * ends its session.
 */
export function providerRecords(options: { database: DatabaseHandle; redis?: Redis; redisPrefix: string; sessions: AppSessions }) {
  const base = options.redis ? redisRecords(options.redis, `${options.redisPrefix}oidc:`) : databaseRecords(options.database);
  return (kind: string): Adapter => {
    const records = base(kind);
    if (kind !== "Grant") return records;
    return {
      ...records,
      async find(id) {
        const grant = await records.find(id);
        return grant && (await options.sessions.isAlive(id)) ? grant : undefined;
      },
      async destroy(id) {
        await Promise.all([records.destroy(id), options.sessions.end(id)]);
      },
    };
  };
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

  return (kind: string): Adapter => ({
    async upsert(id, payload, expiresIn) {
      const values = {
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        uid: payload.uid ?? null,
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
    // The device flow is off: nothing is ever stored by user code.
    findByUserCode: async () => undefined,
    async consume(id) {
      await db.updateTable("oidc_record").set({ consumed_at: Date.now() }).where("kind", "=", kind).where("id", "=", id).execute();
    },
    async destroy(id) {
      await db.deleteFrom("oidc_record").where("kind", "=", kind).where("id", "=", id).execute();
    },
    async revokeByGrantId(grantId) {
      await db.deleteFrom("oidc_record").where("kind", "=", kind).where("grant_id", "=", grantId).execute();
    },
  });
}

function redisRecords(redis: Redis, prefix: string) {
  return (kind: string): Adapter => {
    const key = (id: string) => `${prefix}${kind}:${id}`;
    const grantKey = (grantId: string) => `${prefix}grant:${grantId}`;
    const uidKey = (uid: string) => `${prefix}uid:${kind}:${uid}`;
    const find = async (id: string) => {
      const value = await redis.get(key(id));
      return value ? (JSON.parse(value) as AdapterPayload) : undefined;
    };
    return {
      async upsert(id, payload, expiresIn) {
        const batch = redis.multi().set(key(id), JSON.stringify(payload), "EX", expiresIn);
        if (payload.grantId) {
          // The grant's index outlives each member; a longer-lived member stretches it.
          batch.sadd(grantKey(payload.grantId), key(id)).expire(grantKey(payload.grantId), expiresIn, "GT").expire(grantKey(payload.grantId), expiresIn, "NX");
        }
        if (payload.uid) batch.set(uidKey(payload.uid), id, "EX", expiresIn);
        await batch.exec();
      },
      find,
      async findByUid(uid) {
        const id = await redis.get(uidKey(uid));
        return id ? find(id) : undefined;
      },
      findByUserCode: async () => undefined,
      async consume(id) {
        const payload = await find(id);
        if (payload) await redis.set(key(id), JSON.stringify({ ...payload, consumed: Math.floor(Date.now() / 1000) }), "KEEPTTL");
      },
      async destroy(id) {
        await redis.del(key(id));
      },
      async revokeByGrantId(grantId) {
        const members = await redis.smembers(grantKey(grantId));
        const own = members.filter((member) => member.startsWith(`${prefix}${kind}:`));
        if (own.length) await redis.del(...own);
      },
    };
  };
}
