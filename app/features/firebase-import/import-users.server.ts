import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import type { DatabaseHandle } from "~/db/connection.server";
import type { Database } from "~/db/schema";
import { providerHere, readExport, ExportFileError, type ExportedUser } from "./export-file";
import { hashParametersProblem, isFirebaseHash, storedFirebaseHash, verifyFirebaseHash, type FirebaseHashParameters } from "./firebase-scrypt.server";

export { ExportFileError } from "./export-file";

export interface ImportOptions {
  parameters?: FirebaseHashParameters;
  dryRun?: boolean;
  /** `email:password` of one known account: proves the hash parameters before anything is written. */
  checkPassword?: string;
  /** Called after each batch (and once at the start) with accounts done of total. */
  progress?: (done: number, total: number) => void;
  batchSize?: number;
}

export interface ImportSummary {
  total: number;
  imported: number;
  updated: number;
  unchanged: number;
  skipped: { uid: string; reason: string }[];
  /** Imported, with a remark (a way in this site has no counterpart for). */
  notes: { uid: string; note: string }[];
  dryRun: boolean;
}

/** Names of the kinds a Firebase user can be, for the summary and the tests. */
const guestName = "訪客";
const phoneName = "家長";

const fingerprintOf = (raw: unknown) => createHash("sha256").update(JSON.stringify(raw)).digest("hex");

/**
 * A phone account's placeholder address, as the phone way in makes it (auth/phone-number.ts; not imported: the
 * sign-in layer depends on this feature for the imported hashes). The phone-only test signs in by code to prove it.
 */
const phoneAccountEmail = (e164: string) => `${e164.slice(1)}@phone.invalid`;

/** The address an account has here: its own (lower case), the phone account's placeholder, or a guest's. */
function emailHere(user: ExportedUser): string {
  if (user.email) return user.email.toLowerCase();
  if (user.phoneNumber) return phoneAccountEmail(user.phoneNumber);
  return `temp-${user.localId}@guest.invalid`;
}

const waysIn = (user: ExportedUser) => (user.providerUserInfo ?? []).map((entry) => ({ entry, here: providerHere(entry.providerId) }));

function nameHere(user: ExportedUser): string {
  const name = (user.displayName ?? "").trim();
  if (name) return name.slice(0, 60);
  if (!user.providerUserInfo?.length) return guestName;
  if (!user.email && user.phoneNumber) return phoneName;
  return (user.email ?? "").split("@")[0]!.slice(0, 60) || phoneName;
}

export class ImportRefused extends Error {}

/** Refuses the run (nothing written) when the parameters are not Firebase's or `--check-password` does not match. */
async function proveParameters(users: ExportedUser[], options: ImportOptions): Promise<void> {
  const hashed = users.some((user) => user.passwordHash);
  if (!options.parameters) {
    if (hashed) throw new ImportRefused("匯出檔有密碼雜湊，請一併提供 --hash-key、--salt-separator、--rounds、--mem-cost（Firebase 主控台 > Authentication > 使用者 > ⋮ > 密碼雜湊參數）。沒有寫入任何資料。");
    return;
  }
  const problem = hashParametersProblem(options.parameters);
  if (problem) throw new ImportRefused(`${problem}。沒有寫入任何資料。`);
  if (!options.checkPassword) return;
  const colon = options.checkPassword.indexOf(":");
  if (colon < 1) throw new ImportRefused("--check-password 的格式是 <email>:<密碼>。沒有寫入任何資料。");
  const email = options.checkPassword.slice(0, colon).toLowerCase();
  const password = options.checkPassword.slice(colon + 1);
  const user = users.find((candidate) => candidate.email?.toLowerCase() === email);
  if (!user?.passwordHash || !user.salt) throw new ImportRefused(`匯出檔中找不到 ${email} 的密碼雜湊，無法用它檢查參數。沒有寫入任何資料。`);
  const matches = await verifyFirebaseHash(storedFirebaseHash(user.salt, user.passwordHash), password, options.parameters);
  if (!matches) {
    throw new ImportRefused(`用 ${email} 的密碼檢查失敗：雜湊參數（--hash-key、--salt-separator、--rounds、--mem-cost）與這個 Firebase 專案不符，或密碼不對。沒有寫入任何資料。`);
  }
}

type Db = Kysely<Database>;

/**
 * Imports a Firebase Authentication export into the sign-in layer's tables. Each account keeps its Firebase uid as
 * `user.id`; password hashes are kept as `$firebase-scrypt$…` until their first sign-in (password-verify.server.ts).
 * The whole file is read and checked first; then batches are written each in its own transaction, so a crash
 * leaves whole batches and the next run (which skips what is already there unchanged) finishes the rest.
 */
export async function importFirebaseUsers(database: DatabaseHandle, exportText: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const { entries } = readExport(exportText);
  const summary: ImportSummary = { total: entries.length, imported: 0, updated: 0, unchanged: 0, skipped: [], notes: [], dryRun: Boolean(options.dryRun) };
  const valid = entries.flatMap((entry) => (entry.ok ? [entry] : (summary.skipped.push({ uid: entry.uid, reason: entry.reason }), [])));
  await proveParameters(
    valid.map((entry) => entry.user),
    options,
  );

  // An address, number or uid held by two entries of the file: neither is guessed at.
  const held = new Map<string, number>();
  for (const { user } of valid) {
    for (const key of [`uid:${user.localId}`, user.email ? `email:${user.email.toLowerCase()}` : "", user.phoneNumber ? `phone:${user.phoneNumber}` : ""]) {
      if (key) held.set(key, (held.get(key) ?? 0) + 1);
    }
  }
  const duplicateOf = (user: ExportedUser) =>
    (held.get(`uid:${user.localId}`) ?? 0) > 1
      ? "同一個 uid 在匯出檔中出現兩次"
      : user.email && (held.get(`email:${user.email.toLowerCase()}`) ?? 0) > 1
        ? `email ${user.email} 屬於匯出檔中的兩個帳號`
        : user.phoneNumber && (held.get(`phone:${user.phoneNumber}`) ?? 0) > 1
          ? `電話號碼 ${user.phoneNumber} 屬於匯出檔中的兩個帳號`
          : null;
  const usable: { user: ExportedUser; raw: unknown }[] = [];
  for (const entry of valid) {
    const duplicate = duplicateOf(entry.user);
    const badHash = entry.user.passwordHash && !entry.user.salt ? "有 passwordHash 卻沒有 salt" : null;
    const reason = duplicate ?? badHash;
    if (reason) summary.skipped.push({ uid: entry.user.localId, reason });
    else usable.push(entry);
  }

  const { db, dialect } = database;
  const stamp = (date: Date) => (dialect === "postgres" ? date : date.toISOString());
  const bool = (value: boolean) => (dialect === "postgres" ? value : value ? 1 : 0);
  const now = new Date();
  const nowIso = now.toISOString();

  if (options.parameters && !options.dryRun) {
    const stored = await db.selectFrom("firebase_hash_parameters").selectAll().where("id", "=", 1).executeTakeFirst();
    const p = options.parameters;
    if (stored && (stored.signer_key !== p.signerKey || stored.salt_separator !== p.saltSeparator || Number(stored.rounds) !== p.rounds || Number(stored.mem_cost) !== p.memCost)) {
      const waiting = await db.selectFrom("account").select("id").where("password", "like", "$firebase-scrypt$%").limit(1).executeTakeFirst();
      if (waiting) throw new ImportRefused("這些雜湊參數與上次匯入時的不同，而已匯入的密碼還有未換成新雜湊的：一個 Firebase 專案只有一組參數，請確認是同一個專案。沒有寫入任何資料。");
    }
    await db
      .insertInto("firebase_hash_parameters")
      .values({ id: 1, signer_key: p.signerKey, salt_separator: p.saltSeparator, rounds: p.rounds, mem_cost: p.memCost, written_at: nowIso })
      .onConflict((c) => c.column("id").doUpdateSet({ signer_key: p.signerKey, salt_separator: p.saltSeparator, rounds: p.rounds, mem_cost: p.memCost, written_at: nowIso }))
      .execute();
  }

  const batchSize = options.batchSize ?? 500;
  options.progress?.(summary.skipped.length, summary.total);
  let done = summary.skipped.length;
  for (let start = 0; start < usable.length; start += batchSize) {
    const batch = usable.slice(start, start + batchSize);
    const write = async (trx: Db) => {
      const uids = batch.map(({ user }) => user.localId);
      const emails = batch.map(({ user }) => emailHere(user));
      const phones = batch.flatMap(({ user }) => (user.phoneNumber ? [user.phoneNumber] : []));
      const imported = new Map((await trx.selectFrom("firebase_imports").select(["uid", "fingerprint"]).where("uid", "in", uids).execute()).map((row) => [row.uid, row.fingerprint]));
      const present = new Set((await trx.selectFrom("user").select("id").where("id", "in", uids).execute()).map((row) => row.id));
      const emailOwners = new Map((await trx.selectFrom("user").select(["id", "email"]).where("email", "in", emails).execute()).map((row) => [row.email, row.id]));
      const phoneOwners = new Map(
        phones.length ? (await trx.selectFrom("user").select(["id", "phoneNumber"]).where("phoneNumber", "in", phones).execute()).map((row) => [row.phoneNumber, row.id]) : [],
      );
      const credentials = new Map(
        (await trx.selectFrom("account").select(["userId", "password"]).where("userId", "in", uids).where("providerId", "=", "credential").execute()).map((row) => [row.userId, row.password]),
      );
      const linked = new Set((await trx.selectFrom("account").select(["userId", "providerId"]).where("userId", "in", uids).execute()).map((row) => `${row.userId} ${row.providerId}`));

      const newUsers: Record<string, unknown>[] = [];
      const newAccounts: Record<string, unknown>[] = [];
      const newImports: Record<string, unknown>[] = [];
      const counts = { imported: 0, updated: 0, unchanged: 0 };
      const skipped: { uid: string; reason: string }[] = [];
      const notes: { uid: string; note: string }[] = [];
      for (const { user, raw } of batch) {
        const fingerprint = fingerprintOf(raw);
        const uid = user.localId;
        const email = emailHere(user);
        const before = imported.get(uid);
        if (before === fingerprint) {
          counts.unchanged += 1;
          continue;
        }
        if (before === undefined && present.has(uid)) {
          skipped.push({ uid, reason: "這個 uid 在本站已有帳號，而且不是從 Firebase 匯入的" });
          continue;
        }
        const emailOwner = emailOwners.get(email);
        if (emailOwner && emailOwner !== uid) {
          skipped.push({ uid, reason: `email ${email} 在本站已屬於另一個帳號` });
          continue;
        }
        const phoneOwner = user.phoneNumber ? phoneOwners.get(user.phoneNumber) : undefined;
        if (phoneOwner && phoneOwner !== uid) {
          skipped.push({ uid, reason: `電話號碼 ${user.phoneNumber} 在本站已屬於另一個帳號` });
          continue;
        }
        const ways = waysIn(user);
        const phoneWay = Boolean(user.phoneNumber) && ways.some(({ here }) => here === "phone");
        const fields = {
          name: nameHere(user),
          email,
          emailVerified: bool(Boolean(user.email && user.emailVerified)),
          image: user.photoUrl ?? null,
          isAnonymous: bool(ways.length === 0),
          phoneNumber: user.phoneNumber ?? null,
          phoneNumberVerified: user.phoneNumber ? bool(phoneWay) : null,
          lockedAt: user.disabled ? nowIso : null,
        };
        const accounts: Record<string, unknown>[] = [];
        for (const { entry, here } of ways) {
          if (here === null) {
            notes.push({ uid, note: `登入方式 ${entry.providerId} 本站沒有對應，其他登入方式照常匯入` });
            continue;
          }
          if (here === "phone") continue;
          if (here === "credential" && !user.passwordHash) continue;
          const accountId = here === "credential" ? uid : (entry.rawId ?? "");
          if (!accountId) continue;
          accounts.push({
            id: `firebase-${here}-${uid}`,
            accountId,
            providerId: here,
            userId: uid,
            password: here === "credential" ? storedFirebaseHash(user.salt!, user.passwordHash!) : null,
            createdAt: stamp(new Date(user.createdAt ?? now.getTime())),
            updatedAt: stamp(now),
          });
        }
        const importRow = {
          uid,
          fingerprint,
          imported_at: nowIso,
          updated_at: nowIso,
          last_signed_in_at: user.lastSignedInAt ? new Date(user.lastSignedInAt).toISOString() : null,
          custom_attributes: user.customAttributes ?? null,
        };
        if (before === undefined) {
          counts.imported += 1;
          newUsers.push({ id: uid, ...fields, role: "user", createdAt: stamp(new Date(user.createdAt ?? now.getTime())), updatedAt: stamp(now) });
          newAccounts.push(...accounts);
          newImports.push(importRow);
          continue;
        }
        // A newer export: what changed is written; a password already rehashed here is never replaced.
        counts.updated += 1;
        if (options.dryRun) continue;
        // An operator's lock here is never lifted by an export; a user disabled in Firebase since is locked.
        const { lockedAt, ...changed } = fields;
        await trx.updateTable("user").set({ ...changed, ...(lockedAt ? { lockedAt } : {}), updatedAt: stamp(now) } as never).where("id", "=", uid).execute();
        for (const account of accounts) {
          if (!linked.has(`${uid} ${String(account.providerId)}`)) {
            newAccounts.push(account);
          } else if (account.providerId === "credential" && isFirebaseHash(credentials.get(uid)) && credentials.get(uid) !== account.password) {
            await trx.updateTable("account").set({ password: account.password as string, updatedAt: stamp(now) } as never).where("userId", "=", uid).where("providerId", "=", "credential").execute();
          }
        }
        await trx.updateTable("firebase_imports").set({ fingerprint, updated_at: nowIso, last_signed_in_at: importRow.last_signed_in_at, custom_attributes: importRow.custom_attributes }).where("uid", "=", uid).execute();
      }
      if (!options.dryRun) {
        if (newUsers.length) await trx.insertInto("user").values(newUsers as never).execute();
        if (newAccounts.length) await trx.insertInto("account").values(newAccounts as never).execute();
        if (newImports.length) await trx.insertInto("firebase_imports").values(newImports as never).execute();
      }
      return { counts, skipped, notes };
    };
    const { counts, skipped, notes } = options.dryRun ? await write(db) : await db.transaction().execute(write);
    summary.imported += counts.imported;
    summary.updated += counts.updated;
    summary.unchanged += counts.unchanged;
    summary.skipped.push(...skipped);
    summary.notes.push(...notes);
    done += batch.length;
    options.progress?.(done, summary.total);
  }
  return summary;
}

/** The summary as the command prints it. */
export function summaryText(summary: ImportSummary): string {
  const lines = [
    `${summary.dryRun ? "試跑（沒有寫入任何資料）：" : ""}共 ${summary.total} 個帳號：新匯入 ${summary.imported}、更新 ${summary.updated}、未變 ${summary.unchanged}、略過 ${summary.skipped.length}`,
  ];
  if (summary.imported === 0 && summary.updated === 0 && summary.total > 0 && !summary.dryRun) lines.push("這次沒有任何變更（同一份匯出檔已經匯入過）。");
  for (const { uid, reason } of summary.skipped) lines.push(`  略過 ${uid}：${reason}`);
  for (const { uid, note } of summary.notes) lines.push(`  注意 ${uid}：${note}`);
  return lines.join("\n");
}

export { ExportFileError as NotAnExport };
export const importedKinds = { guestName, phoneName } as const;
