import type { Adapter } from "oidc-provider";
import type { DatabaseHandle } from "~/db/connection.server";
import type { AppSessions } from "./app-sessions.server";
import { providerRecordConsumption, TokenAlreadyUsed, type KeptAnswer } from "./provider-record-consumption.server";
import { providerRecordReads } from "./provider-record-reads.server";
import { providerRecordWrites } from "./provider-record-writes.server";
import { forgetReads } from "./request-records.server";

// Part of this module's face: the provider's callers catch TokenAlreadyUsed here (refresh-rotation, device-polls).
export { TokenAlreadyUsed, type KeptAnswer };

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
  const { database, sessions } = options;
  const endFamily = async (grantId: string) => {
    forgetReads();
    await sessions.end(grantId);
    await options.settle(grantId);
  };
  const reads = providerRecordReads(database, sessions);
  const writes = providerRecordWrites(database);
  const consumption = providerRecordConsumption({ database, reads, writeRows: writes.writeRows, endFamily });

  const records = (kind: string): Adapter => ({
    upsert: (id, payload, expiresIn) => writes.upsert(kind, id, payload, expiresIn),
    find: (id) => reads.find(kind, id),
    findByUid: (uid) => reads.findByUid(kind, uid),
    // A device code's user code is kept as its uid (provider-record-writes.server.ts).
    findByUserCode: (userCode) => reads.findByUid(kind, userCode),
    consume: (id) => consumption.consume(kind, id),
    destroy: (id) => (kind === "Grant" ? endFamily(id) : writes.remove(kind, id)),
    revokeByGrantId: (grantId) => writes.removeByGrantId(kind, grantId),
  });

  return Object.assign(records, { endFamily, keptAnswer: consumption.keptAnswer, rotation: consumption.rotation });
}
