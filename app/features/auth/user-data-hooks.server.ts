import type { Kysely, Transaction } from "kysely";
import type { Database } from "~/db/schema";
import { getLogger } from "~/services/logger.server";

/**
 * How other features keep their own rows in step with accounts. Each feature that stores rows pointing at
 * `user.id` registers one handler at start-up:
 * - `deleteUserData` runs before an account is deleted (sessions and accounts cascade on their own);
 * - `moveUserData` runs when a guest signs in to an existing account: the guest's rows move to that account
 *   before the guest user is removed.
 * A handler that throws stops the deletion or the sign-in, so nothing is half-deleted. Work that must wait for
 * the commit (deleting a file's bytes) goes in `afterCommit`; its failure is logged, not thrown (the change
 * already happened).
 */
export interface UserDataHandler {
  name: string;
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

export async function deleteUserData(db: Kysely<Database>, userId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const handler of handlers) await handler.deleteUserData(trx, userId);
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
