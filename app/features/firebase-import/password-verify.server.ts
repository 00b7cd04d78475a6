import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { countFirebasePassword } from "~/services/metrics.server";
import { isFirebaseHash, verifyFirebaseHash, type FirebaseHashParameters } from "./firebase-scrypt.server";

type Verify = (input: { hash: string; password: string }) => Promise<boolean>;
/** The site's own hashing (password-hash.server.ts): the check runs in its hash slots, the rehash is its argon2id. */
interface SiteHashing {
  verify: Verify;
  hash: (password: string) => Promise<string>;
  inHashSlot: <T>(work: () => Promise<T>) => Promise<T>;
}

export async function readHashParameters(db: Kysely<Database>): Promise<FirebaseHashParameters | null> {
  const row = await db.selectFrom("firebase_hash_parameters").selectAll().where("id", "=", 1).executeTakeFirst();
  return row ? { signerKey: row.signer_key, saltSeparator: row.salt_separator, rounds: Number(row.rounds), memCost: Number(row.mem_cost) } : null;
}

/**
 * Better Auth's `password.verify` for a site with accounts imported from Firebase: a `$firebase-scrypt$…` hash is
 * checked with Firebase's scrypt and the project's parameters; on a match the password is rehashed with argon2id
 * in place of the old hash (matched on the old hash itself, so a password changed meanwhile is left alone), and the
 * old hash is gone. Every other hash goes to the site's own check.
 */
export function withFirebaseHashes(db: Kysely<Database>, { verify, hash: hashPassword, inHashSlot }: SiteHashing): Verify {
  return async ({ hash, password }) => {
    if (!isFirebaseHash(hash)) return verify({ hash, password });
    const parameters = await readHashParameters(db);
    if (!parameters) return false;
    const matches = await inHashSlot(() => verifyFirebaseHash(hash, password, parameters));
    if (!matches) {
      countFirebasePassword("refused");
      return false;
    }
    countFirebasePassword("verified");
    const rehashed = await hashPassword(password);
    const changed = await db
      .updateTable("account")
      .set({ password: rehashed })
      .where("providerId", "=", "credential")
      .where("password", "=", hash)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) > 0) countFirebasePassword("rehashed");
    return true;
  };
}
