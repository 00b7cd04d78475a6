import type { AdapterPayload } from "oidc-provider";
import type { DatabaseHandle } from "~/db/connection.server";
import type { ProviderRecordReads } from "./provider-record-reads.server";
import { forgetReads, heldWrites, holdWrites, type HeldRow } from "./request-records.server";

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

/**
 * How codes and tokens are consumed (provider-records.server.ts): each by one conditional update, so of two
 * presenters exactly one wins and the other ends the family; a refresh token's rotation, with its answer kept for
 * the grace.
 */
export function providerRecordConsumption(options: {
  database: DatabaseHandle;
  reads: ProviderRecordReads;
  writeRows(rows: HeldRow[]): Promise<void>;
  endFamily(grantId: string): Promise<void>;
}) {
  const { db } = options.database;
  const { reads } = options;

  /** Another presenter consumed `id` first: its family ends. */
  const refuseSecondPresenter = async (kind: string, id: string): Promise<never> => {
    const row = await db.selectFrom("oidc_record").select("grant_id").where("kind", "=", kind).where("id", "=", id).executeTakeFirst();
    if (row?.grant_id) await options.endFamily(row.grant_id);
    throw new TokenAlreadyUsed(kind, row?.grant_id ?? null);
  };

  return {
    /**
     * One conditional update: only the request that finds the row unconsumed marks it. The provider checked
     * `consumed` just before, so a request that changes nothing lost a race to another presenter of the same
     * code or token: the family ends and the request is refused. During a rotation, held until its end.
     */
    async consume(kind: string, id: string) {
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
    async keptAnswer(presentedId: string, clientId: string): Promise<KeptAnswer | undefined> {
      const row = await reads.readToken("RefreshToken", presentedId);
      if (!row?.kept_answer || row.consumed_at === null || row.successorExpiresAt === null || row.successorConsumedAt !== null) return undefined;
      if (Number(row.successorExpiresAt) <= Date.now()) return undefined;
      if ((JSON.parse(row.payload) as AdapterPayload).clientId !== clientId) return undefined;
      if (row.grant_id && !(await reads.find("Grant", row.grant_id))) return undefined;
      return { body: JSON.parse(row.kept_answer) as Record<string, unknown>, consumedAt: Number(row.consumed_at), grantId: row.grant_id };
    },
    async rotation(rotate: () => Promise<Record<string, unknown>>) {
      const { held, answer } = await holdWrites(rotate);
      if (held.rows.size > 0) await options.writeRows([...held.rows.values()]);
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
  };
}
