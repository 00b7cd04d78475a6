import type { AdapterPayload } from "oidc-provider";
import type { DatabaseHandle } from "~/db/connection.server";
import { forgetReads, heldWrites, type HeldRow } from "./request-records.server";

/** How often, at most, one process deletes expired rows from the database. */
const sweepEveryMs = 10 * 60_000;

/**
 * How the provider's records are written and removed (provider-records.server.ts): every write forgets what the
 * request has read, and now and then expired rows are swept away.
 */
export function providerRecordWrites(database: DatabaseHandle) {
  const { db } = database;
  let lastSweep = 0;
  const sweep = async () => {
    if (Date.now() - lastSweep < sweepEveryMs) return;
    lastSweep = Date.now();
    await db.deleteFrom("oidc_record").where("expires_at", "<", Date.now()).execute();
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

  return {
    writeRows,
    /** Writes a record, or holds it back until the end of a refresh token's rotation (provider-records.server.ts). */
    async upsert(kind: string, id: string, payload: AdapterPayload, expiresIn: number) {
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
    async remove(kind: string, id: string) {
      forgetReads();
      await db.deleteFrom("oidc_record").where("kind", "=", kind).where("id", "=", id).execute();
    },
    async removeByGrantId(kind: string, grantId: string) {
      forgetReads();
      await db.deleteFrom("oidc_record").where("kind", "=", kind).where("grant_id", "=", grantId).execute();
    },
  };
}
