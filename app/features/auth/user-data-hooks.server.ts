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

/**
 * One handler per name: registering a name again replaces it (a test process builds several sites). Returns the
 * handler's removal, for a test that registers its own beside other tests in one process.
 */
export function registerUserDataHandler(handler: UserDataHandler): () => void {
  const index = handlers.findIndex((existing) => existing.name === handler.name);
  if (index === -1) handlers.push(handler);
  else handlers[index] = handler;
  return () => {
    const at = handlers.indexOf(handler);
    if (at !== -1) handlers.splice(at, 1);
  };
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

/** The family's part of a parent's copy, as far as deletion needs it (family-user-data.server.ts makes it). */
type FamilyPart = { family: { name: string; parents: unknown[]; children: { name: string; consents: unknown[] }[] } | null } | undefined;

/**
 * What deleting the account takes, in the parent's words, before (`will`) and after (`went`): the phone number,
 * the passkeys, and the family — with its children and their consent records when this is its only parent, else
 * only this parent's place in it. Read before anything is deleted.
 */
export async function deletionSummary(db: Kysely<Database>, userId: string, when: "will" | "went"): Promise<string[]> {
  const user = await db.selectFrom("user").select(["phoneNumber"]).where("id", "=", userId).executeTakeFirst();
  const passkeys = await db.selectFrom("passkey").select("name").where("user_id", "=", userId).execute();
  const family = ((await exportUserData(db, userId)).family as FamilyPart)?.family;
  const lines: string[] = [];
  if (user?.phoneNumber) lines.push(`手機號碼 ${user.phoneNumber.replace(/^\+886(9\d{2})(\d{3})(\d{3})$/, "0$1-$2-$3")}`);
  if (passkeys.length > 0) lines.push(`${passkeys.length} 把密碼金鑰（${passkeys.map((key) => `「${key.name}」`).join("、")}）`);
  if (family && family.parents.length <= 1) {
    const consents = family.children.reduce((sum, child) => sum + child.consents.length, 0);
    const children = family.children.length > 0 ? `，${family.children.length} 位孩子（${family.children.map((child) => child.name).join("、")}）和 ${consents} 筆同意紀錄` : "";
    lines.push(`家庭「${family.name}」${children}：你是這個家庭唯一的家長，家庭${when === "will" ? "會" : "已"}一起刪除`);
  } else if (family) {
    lines.push(when === "will" ? `你在家庭「${family.name}」的身分：家庭和孩子的資料會留給其他家長` : `你在家庭「${family.name}」的身分：家庭和孩子的資料留給其他家長`);
  }
  return lines;
}
