import { randomUUID } from "node:crypto";
import { importJWK, SignJWT } from "jose";
import type { ServerEnv } from "~/config/env.server";
import type { DatabaseHandle } from "~/db/connection.server";
import { enqueueBackchannelLogout, type BackchannelNotice, type BackchannelTransport } from "~/features/mail/outbox.server";
import { sessionIdOf } from "./access-tokens.server";
import type { RegisteredClients } from "./registered-clients.server";
import { signingKeys } from "./signing-keys.server";

/** How long a logout token is valid after it is signed (the specification asks for a short one). */
const logoutTokenSeconds = 120;
const logoutEvent = "http://schemas.openid.net/event/backchannel-logout";

export interface BackchannelLogout {
  /**
   * An app's sign-in (grant) has ended: its records go, and, if its app listed a `backchannel_logout_uri`, a
   * logout notice is queued in the same transaction. Once per grant, however many callers.
   */
  settle(grantId: string): Promise<void>;
  /** Settles every grant whose session row is gone; answers how many. */
  sweep(): Promise<number>;
}

/**
 * Back-channel logout (OpenID Connect Back-Channel Logout 1.0, decision 190). Every way a sign-in ends deletes the
 * session row the app's grant lives by (app-sessions.server.ts): the app's own sign-out (revocation or
 * end-session), sign-out everywhere, a password change, ending the device, the operator's sign-out, account
 * deletion (the rows cascade). The provider's own ends (revocation, end-session, reuse detection) settle the grant
 * at once; for the others, which only delete session rows, a sweep finds grants without their session row, run by
 * the process that delivers the outbox before each of its passes (every second). So no path that ends sessions,
 * now or later, needs to know about apps.
 */
export function backchannelLogout({ database, clients }: { database: DatabaseHandle; clients: RegisteredClients }): BackchannelLogout {
  const { db } = database;
  const settle = async (grantId: string) => {
    await db.transaction().execute(async (trx) => {
      const grant = await trx.selectFrom("oidc_record").select("payload").where("kind", "=", "Grant").where("id", "=", grantId).executeTakeFirst();
      const removed = await trx.deleteFrom("oidc_record").where("kind", "=", "Grant").where("id", "=", grantId).executeTakeFirst();
      await trx.deleteFrom("oidc_record").where("grant_id", "=", grantId).execute();
      // Another instance or request settled it first: it sent the notice.
      if (!grant || Number(removed.numDeletedRows) !== 1) return;
      const { clientId, accountId } = JSON.parse(grant.payload) as { clientId?: string; accountId?: string };
      const uri = clientId ? clients.backchannelLogoutUri(clientId) : undefined;
      if (!uri || !accountId) return;
      await enqueueBackchannelLogout(trx, { uri, claims: { aud: clientId, sub: accountId, sid: sessionIdOf(grantId), jti: randomUUID() } });
    });
  };
  const sweep = async () => {
    const orphans = await db
      .selectFrom("oidc_record")
      .select("id")
      .where("kind", "=", "Grant")
      .where("expires_at", ">", Date.now())
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom("session").select("session.id").whereRef("session.id", "=", "oidc_record.id"))))
      .limit(100)
      .execute();
    // A grant is saved after its session row (provider.server.ts: startGrantSession): one without it has ended.
    for (const row of orphans) await settle(row.id);
    return orphans.length;
  };
  return { settle, sweep };
}

/**
 * Signs each queued notice as a logout token with the provider's first key (`typ: logout+jwt`; iss, aud, iat,
 * exp, jti, sub, sid, the back-channel event, no nonce) and posts it to the app. 200 or 204 is delivered; a 400
 * (the app refused the token) is not retried; anything else, or no answer, is retried by the outbox.
 */
export function backchannelTransport(env: ServerEnv, database: DatabaseHandle, ended: () => Promise<unknown>): BackchannelTransport {
  let signer: Promise<{ key: CryptoKey | Uint8Array; alg: string; kid: string }> | undefined;
  const currentSigner = () =>
    (signer ??= signingKeys(env, database).then(async ([first]) => ({ key: await importJWK(first!, first!.alg), alg: first!.alg, kid: first!.kid })));
  return {
    collect: ended,
    async send({ uri, claims }: BackchannelNotice) {
      const { key, alg, kid } = await currentSigner();
      const { aud, jti, ...subject } = claims as { aud: string; jti: string; sub?: string; sid?: string };
      const token = await new SignJWT({ ...subject, events: { [logoutEvent]: {} } })
        .setProtectedHeader({ alg, kid, typ: "logout+jwt" })
        .setIssuer(env.SITE_URL)
        .setAudience(aud)
        .setIssuedAt()
        .setExpirationTime(`${logoutTokenSeconds}s`)
        .setJti(jti)
        .sign(key);
      const response = await fetch(uri, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ logout_token: token }),
        redirect: "manual",
        signal: AbortSignal.timeout(10_000),
      });
      await response.body?.cancel();
      if (response.status === 200 || response.status === 204) return;
      const failure = new Error(`the app's back-channel address answered ${response.status}`);
      throw response.status === 400 ? Object.assign(failure, { permanent: true }) : failure;
    },
  };
}
