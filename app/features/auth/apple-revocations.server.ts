import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { Database } from "~/db/schema";
import { retryDelayMs } from "~/features/mail/outbox.server";
import type { UserDataHandler } from "./user-data-hooks.server";
import { appleClientSecret, type AppleKeys } from "./apple.server";

/**
 * Apple's tokens are revoked when the account is deleted (App Store Review Guideline 5.1.1(v), TN3194). The
 * deletion's transaction writes each Apple token to revoke as a row; after the commit, and every half minute
 * after that, the rows that are due go to Apple's POST /auth/revoke. A row stays, retried with the mail outbox's
 * back-off, until Apple answers 200, so Apple being away loses nothing. Two instances may send the same row at
 * once: revoking twice is harmless, so rows are not leased.
 */
const listeners = new Set<() => void>();

/** The user-data handler: the deletion's transaction keeps the Apple tokens its cascade is about to remove. */
export const appleTokenUserData: UserDataHandler = {
  // No part in the copy of one's data: the tokens are Apple's to the site, not the person's data.
  name: "apple-tokens",
  async deleteUserData(db, userId) {
    const accounts = await db.selectFrom("account").select(["accessToken", "refreshToken"]).where("userId", "=", userId).where("providerId", "=", "apple").execute();
    const now = new Date().toISOString();
    for (const account of accounts) {
      // The refresh token revokes the whole authorization; without one the access token is what there is.
      const [token, tokenType] = account.refreshToken ? [account.refreshToken, "refresh_token" as const] : [account.accessToken, "access_token" as const];
      if (!token) continue;
      await db.insertInto("apple_token_revocation").values({ id: randomUUID(), token, token_type: tokenType, created_at: now, attempts: 0, next_attempt_at: now, last_error: null }).execute();
    }
  },
  moveUserData: async () => {},
  afterCommit: async () => {
    for (const listener of listeners) listener();
  },
};

/** Sends one token to Apple's revocation endpoint; throws unless Apple answers 200. */
async function revoke(keys: AppleKeys, row: { token: string; token_type: string }): Promise<void> {
  const body = new URLSearchParams({ client_id: keys.clientId, client_secret: await appleClientSecret(keys), token: row.token, token_type_hint: row.token_type });
  const response = await fetch(`${keys.url}/auth/revoke`, { method: "POST", body, redirect: "error", signal: AbortSignal.timeout(10_000) });
  if (response.status !== 200) throw new Error(`Apple answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
}

/** Sends every due revocation once; answers how many Apple took. */
export async function revokeDueAppleTokens(db: Kysely<Database>, keys: AppleKeys, logger: Logger): Promise<number> {
  const rows = await db.selectFrom("apple_token_revocation").selectAll().where("next_attempt_at", "<=", new Date().toISOString()).orderBy("next_attempt_at").limit(20).execute();
  let revoked = 0;
  for (const row of rows) {
    try {
      await revoke(keys, row);
      await db.deleteFrom("apple_token_revocation").where("id", "=", row.id).execute();
      revoked += 1;
    } catch (error) {
      const attempts = row.attempts + 1;
      logger.warn({ err: error, revocationId: row.id, attempts }, "revoking an Apple token failed, will retry");
      const lastError = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      await db
        .updateTable("apple_token_revocation")
        .set({ attempts, last_error: lastError, next_attempt_at: new Date(Date.now() + retryDelayMs(attempts)).toISOString() })
        .where("id", "=", row.id)
        .execute();
    }
  }
  return revoked;
}

/** Runs revocations after each deletion and every `pollMs`; stop() ends it. */
export function startAppleRevocations(options: { db: Kysely<Database>; keys: AppleKeys; logger: Logger; startWhen: Promise<unknown>; pollMs?: number }) {
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const run = () => {
    if (stopped || running) return;
    running = revokeDueAppleTokens(options.db, options.keys, options.logger)
      .catch((error: unknown) => options.logger.warn({ err: error }, "Apple token revocations not reachable"))
      .finally(() => (running = undefined));
  };
  let timer: NodeJS.Timeout | undefined;
  void options.startWhen.then(() => {
    if (stopped) return;
    listeners.add(run);
    timer = setInterval(run, options.pollMs ?? 30_000);
    timer.unref();
    run();
  });
  return {
    async stop() {
      stopped = true;
      listeners.delete(run);
      clearInterval(timer);
      await running;
    },
  };
}
