import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { symmetricDecrypt } from "better-auth/crypto";
import { sql, type Kysely } from "kysely";
import type { Database } from "~/db/schema";

/**
 * Two-step sign-in's backup codes, as a parent copies them by hand and as the database keeps them:
 * - drawn from 31 characters without the look-alikes (no 0/O, 1/I/L) in one case: `K7QM4-XR2PD` (about 49 bits);
 *   typed back in any case, with or without the dash or spaces;
 * - stored as salted hashes, one per code (`salt$HMAC-SHA256(AUTH_SECRET, salt:code)`), never as one ciphertext
 *   the server could read back: a copy of the database alone gives no code, nor a way to test guesses offline.
 * Better Auth's two-factor plugin keeps the list through `storeBackupCodes` (encrypt/decrypt are our hash and our
 * read of the stored list) and compares the typed code with each entry: the sign-in hook first turns the typed
 * code into the entry it matches (`matchingEntry`). Codes of the earlier format (one ciphertext of plain codes) keep
 * working and are converted at start-up (`convertLegacyBackupCodes`) and whenever their list is written.
 */
export const backupCodeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
const hashedPrefix = "hashed:";
const entryShape = /^[\w-]{22}\$[\w-]{43}$/;

const normalized = (code: string) => code.toUpperCase().replace(/[^0-9A-Z]/g, "");
const macOf = (secret: string, salt: string, code: string) => createHmac("sha256", secret).update(`${salt}:${normalized(code)}`).digest("base64url");
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function generateBackupCodes(amount: number): string[] {
  return Array.from({ length: amount }, () => {
    const code = Array.from({ length: 10 }, () => backupCodeAlphabet[randomInt(backupCodeAlphabet.length)]).join("");
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

const hashEntry = (secret: string, code: string) => {
  const salt = randomBytes(16).toString("base64url");
  return `${salt}$${macOf(secret, salt, code)}`;
};

/** The stored list's entries: hashes, or (earlier format) plain codes read from their ciphertext. */
async function entriesOf(stored: string, secret: string): Promise<string[]> {
  const json = stored.startsWith(hashedPrefix) ? stored.slice(hashedPrefix.length) : await symmetricDecrypt({ key: secret, data: stored });
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === "string") : [];
}

/** The plugin's `storeBackupCodes`: a list of codes (or of entries already hashed) in, the stored text out, and back. */
export function backupCodeStorage(secret: string) {
  return {
    encrypt: async (json: string) => {
      const codes = JSON.parse(json) as string[];
      return hashedPrefix + JSON.stringify(codes.map((code) => (entryShape.test(code) ? code : hashEntry(secret, code))));
    },
    decrypt: async (stored: string) => JSON.stringify(await entriesOf(stored, secret)),
  };
}

/** The entry of the stored list that the typed code is, or undefined. */
export async function matchingEntry(stored: string, typed: string, secret: string): Promise<string | undefined> {
  for (const entry of await entriesOf(stored, secret)) {
    const [salt = "", mac = ""] = entryShape.test(entry) ? entry.split("$") : [];
    if (salt ? sameText(mac, macOf(secret, salt, typed)) : sameText(entry, typed.trim())) return entry;
  }
  return undefined;
}

/** Start-up: every list still in the earlier format (one ciphertext) becomes salted hashes of the same codes. */
export async function convertLegacyBackupCodes(db: Kysely<Database>, secret: string): Promise<number> {
  const storage = backupCodeStorage(secret);
  const rows = await sql<{ id: string; backupCodes: string }>`select id, "backupCodes" from "twoFactor" where "backupCodes" not like ${`${hashedPrefix}%`}`.execute(db);
  for (const row of rows.rows) {
    const converted = await storage.encrypt(JSON.stringify(await entriesOf(row.backupCodes, secret)));
    await sql`update "twoFactor" set "backupCodes" = ${converted} where id = ${row.id} and "backupCodes" = ${row.backupCodes}`.execute(db);
  }
  return rows.rows.length;
}
