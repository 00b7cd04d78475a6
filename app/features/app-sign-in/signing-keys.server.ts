import { generateKeyPairSync } from "node:crypto";
import type { DatabaseHandle } from "~/db/connection.server";
import type { ServerEnv } from "~/config/env.server";

export type PrivateJwk = Record<string, unknown> & { kid: string; alg: string };

/** The id of the key the provider makes for itself; every instance inserts the same id, so they all agree on one. */
const generatedKid = "site-es256-1";

/**
 * The provider's private signing keys: OIDC_JWKS when it is set (the operator's keys, rotated by listing the new
 * key first and keeping the old one until the tokens it signed have expired), else one ES256 key made on the first
 * start and kept in the database, so every instance and every restart signs and publishes the same key.
 */
export async function signingKeys(env: ServerEnv, database: DatabaseHandle): Promise<PrivateJwk[]> {
  if (env.OIDC_JWKS) return env.OIDC_JWKS.keys.map((key) => ({ use: "sig", ...key }));
  const { db } = database;
  const stored = async () => db.selectFrom("oidc_signing_key").select("private_jwk").orderBy("created_at").execute();
  let rows = await stored();
  if (rows.length === 0) {
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = { ...privateKey.export({ format: "jwk" }), kid: generatedKid, alg: "ES256", use: "sig" };
    await db
      .insertInto("oidc_signing_key")
      .values({ kid: generatedKid, private_jwk: JSON.stringify(jwk), created_at: new Date().toISOString() })
      .onConflict((conflict) => conflict.column("kid").doNothing())
      .execute();
    rows = await stored();
  }
  return rows.map((row) => JSON.parse(row.private_jwk) as PrivateJwk);
}
