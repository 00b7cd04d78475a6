import { generateKeyPairSync } from "node:crypto";
import type { Kysely } from "kysely";
import type { Adapter, AdapterPayload } from "oidc-provider";
import type { Database } from "~/db/schema";

/**
 * Where the development identity provider keeps its records and its signing key: the database, so every worker
 * process (a default `npm start` runs two) and every instance sees the same ones. Kept in one process's memory, a
 * pop-up's sign-in page reached one worker and its form another ("unknown interaction"), and an ID token signed
 * by one worker's key was checked against the other's.
 */
export function sharedDevRecords(db: Kysely<Database>) {
  const read = (row: { payload: string; expires_at: number | string } | undefined) =>
    row && Number(row.expires_at) > Date.now() ? (JSON.parse(row.payload) as AdapterPayload) : undefined;
  return (kind: string): Adapter => {
    const find = async (id: string) =>
      read(await db.selectFrom("dev_identity_record").select(["payload", "expires_at"]).where("kind", "=", kind).where("id", "=", id).executeTakeFirst());
    return {
      async upsert(id, payload, expiresIn) {
        const values = { payload: JSON.stringify(payload), grant_id: payload.grantId ?? null, uid: payload.uid ?? null, expires_at: Date.now() + expiresIn * 1000 };
        await db
          .insertInto("dev_identity_record")
          .values({ kind, id, ...values })
          .onConflict((conflict) => conflict.columns(["kind", "id"]).doUpdateSet(values))
          .execute();
        // Expired records of this kind go as new ones come (development traffic is light).
        await db.deleteFrom("dev_identity_record").where("kind", "=", kind).where("expires_at", "<", Date.now()).execute();
      },
      find,
      async findByUid(uid) {
        return read(await db.selectFrom("dev_identity_record").select(["payload", "expires_at"]).where("kind", "=", kind).where("uid", "=", uid).executeTakeFirst());
      },
      // Only the device flow asks for this, and the development provider does not offer it.
      findByUserCode: async () => undefined,
      async consume(id) {
        const payload = await find(id);
        if (!payload) return;
        const consumed = JSON.stringify({ ...payload, consumed: Math.floor(Date.now() / 1000) });
        await db.updateTable("dev_identity_record").set({ payload: consumed }).where("kind", "=", kind).where("id", "=", id).execute();
      },
      async destroy(id) {
        await db.deleteFrom("dev_identity_record").where("kind", "=", kind).where("id", "=", id).execute();
      },
      async revokeByGrantId(grantId) {
        await db.deleteFrom("dev_identity_record").where("grant_id", "=", grantId).execute();
      },
    };
  };
}

const keyKind = "SigningKey";

/** The provider's RSA signing key as a private JWK: made by whichever process asks first, then the same for all. */
export async function sharedDevSigningKey(db: Kysely<Database>): Promise<Record<string, unknown>> {
  const stored = () => db.selectFrom("dev_identity_record").select("payload").where("kind", "=", keyKind).where("id", "=", "dev").executeTakeFirst();
  let row = await stored();
  if (!row) {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const jwk = { ...privateKey.export({ format: "jwk" }), kid: "dev", use: "sig", alg: "RS256" };
    await db
      .insertInto("dev_identity_record")
      .values({ kind: keyKind, id: "dev", payload: JSON.stringify(jwk), grant_id: null, uid: null, expires_at: Number.MAX_SAFE_INTEGER })
      .onConflict((conflict) => conflict.columns(["kind", "id"]).doNothing())
      .execute();
    row = await stored();
  }
  return JSON.parse(row!.payload) as Record<string, unknown>;
}
