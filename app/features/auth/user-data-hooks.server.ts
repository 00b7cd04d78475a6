import type { Kysely, Transaction } from "kysely";
import type { Database } from "~/db/schema";
import { getLogger } from "~/services/logger.server";

/**
 * How other features keep their own rows in step with accounts. Each feature that stores rows pointing at
 * `user.id` registers one handler at start-up:
 * - `deleteUserData` runs inside the account's deletion, in the transaction that also deletes the user row;
 * - `moveUserData` runs when a guest signs in to an existing account: the guest's rows move to that account
 *   before the guest user is removed.
 * - `exportUserData` answers the rows as plain JSON for the account's copy of its data (Taiwan's Personal Data
 *   Protection Act, Art. 3 and 10): what the person sees, without other people's data or internal keys. A handler
 *   that keeps nothing of the person's own (Apple's tokens, kept only to revoke them) has none.
 * A handler that throws stops the deletion or the sign-in, so nothing is half-deleted. Work that must wait for
 * the commit (deleting a file's bytes) goes in `afterCommit`; its failure is logged, not thrown (the change
 * already happened).
 */
export interface UserDataHandler {
  name: string;
  exportUserData?(db: Kysely<Database>, userId: string): Promise<unknown>;
  deleteUserData(db: Kysely<Database> | Transaction<Database>, userId: string): Promise<void>;
  moveUserData(db: Kysely<Database> | Transaction<Database>, fromUserId: string, toUserId: string): Promise<void>;
  afterCommit?(): Promise<void>;
}

const handlers: UserDataHandler[] = [];

/** One handler per name: registering a name again replaces it (a test process builds several sites). */
export function registerUserDataHandler(handler: UserDataHandler): void {
  const index = handlers.findIndex((existing) => existing.name === handler.name);
  if (index === -1) handlers.push(handler);
  else handlers[index] = handler;
}

/**
 * Deletes an account, all or nothing: every feature's rows and the user row itself (its sessions, sign-in methods
 * and other rows cascade) in one transaction, so a crash at any point leaves either the whole account or none of
 * it. Files' bytes only enter the trash inside it; they are removed after the commit (or by the sweeper at
 * start-up after a crash). Better Auth's own deletion of the user, which follows, then finds nothing left.
 */
export async function deleteUserData(db: Kysely<Database>, userId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const handler of handlers) await handler.deleteUserData(trx, userId);
    await trx.deleteFrom("user").where("id", "=", userId).execute();
  });
  await afterCommit();
}

export async function moveUserData(db: Kysely<Database>, fromUserId: string, toUserId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const handler of handlers) await handler.moveUserData(trx, fromUserId, toUserId);
  });
  await afterCommit();
}

async function afterCommit() {
  for (const handler of handlers) {
    await handler.afterCommit?.().catch((error: unknown) => getLogger().warn({ err: error, handler: handler.name }, "work after a committed account change failed"));
  }
}

/** Every feature's part of the account's data, keyed by the handler's name. */
export async function exportUserData(db: Kysely<Database>, userId: string): Promise<Record<string, unknown>> {
  const parts: Record<string, unknown> = {};
  for (const handler of handlers) if (handler.exportUserData) parts[handler.name] = await handler.exportUserData(db, userId);
  return parts;
}
