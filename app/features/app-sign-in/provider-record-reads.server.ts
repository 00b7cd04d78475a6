import type { AdapterPayload } from "oidc-provider";
import type { DatabaseHandle } from "~/db/connection.server";
import type { AppSessions } from "./app-sessions.server";
import { heldWrites, readsOfThisRequest, type RecordRow } from "./request-records.server";

/** The kinds read together with their grant and its session row, which the provider looks up right after them. */
const kindsWithGrant = new Set(["AccessToken", "RefreshToken", "AuthorizationCode"]);

/** A row as the provider wants it: nothing once expired, and `consumed` in seconds once consumed. */
function payloadOf(row: RecordRow | null | undefined) {
  if (!row || Number(row.expires_at) <= Date.now()) return undefined;
  const payload = JSON.parse(row.payload) as AdapterPayload;
  return row.consumed_at === null ? payload : { ...payload, consumed: Math.floor(Number(row.consumed_at) / 1000) };
}

/**
 * How the provider's records are read (provider-records.server.ts): a token with its grant and the grant's session
 * row in one query, and what one request has read or holds back answered without the database
 * (request-records.server.ts).
 */
export function providerRecordReads(database: DatabaseHandle, sessions: AppSessions) {
  const { db } = database;

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

  return {
    readToken,
    /** A record's payload: a write this request holds back first, then what it has already read, then the database. */
    async find(kind: string, id: string) {
      const held = heldWrites()?.rows.get(`${kind}:${id}`);
      if (held) return payloadOf({ ...held, consumed_at: null });
      const known = readsOfThisRequest()?.rows.get(`${kind}:${id}`);
      if (known !== undefined) return payloadOf(known);
      if (kind === "Grant") return payloadOf(await readGrant(id));
      if (kindsWithGrant.has(kind)) return payloadOf(await readToken(kind, id));
      return payloadOf(await db.selectFrom("oidc_record").select(["payload", "expires_at", "consumed_at"]).where("kind", "=", kind).where("id", "=", id).executeTakeFirst());
    },
    /** A record's payload by its uid (a device code's is its user code: provider-record-writes.server.ts). */
    findByUid: async (kind: string, uid: string) =>
      payloadOf(await db.selectFrom("oidc_record").select(["payload", "expires_at", "consumed_at"]).where("kind", "=", kind).where("uid", "=", uid).executeTakeFirst()),
  };
}

export type ProviderRecordReads = ReturnType<typeof providerRecordReads>;
