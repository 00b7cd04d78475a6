import { createCipheriv, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Firebase Authentication's modified scrypt (github.com/firebase/scrypt), for passwords imported from a Firebase
 * export: key = scrypt(password, salt ‖ salt separator, N = 2^memCost, r = rounds, p = 1, 32 bytes); the hash is
 * AES-256-CTR(key, IV = 16 zero bytes) over the project's signer key. The project's parameters (the console's
 * "Password hash parameters") are one per project and live in `firebase_hash_parameters`, written by the import,
 * never beside a password; an account's stored hash is `$firebase-scrypt$<salt>$<hash>` (base64 both).
 */
export interface FirebaseHashParameters {
  /** base64_signer_key */
  signerKey: string;
  /** base64_salt_separator */
  saltSeparator: string;
  rounds: number;
  memCost: number;
}

export const firebaseHashPrefix = "$firebase-scrypt$";

const base64 = /^[A-Za-z0-9+/]*={0,2}$/;
const isBase64 = (text: string) => text.length % 4 === 0 && base64.test(text);

/**
 * Why these parameters are not of Firebase's form, or null. The console shows a 64-byte signer key, a short salt
 * separator, rounds 1–8 and a memory cost 1–14 (the ranges `firebase auth:import` accepts).
 */
export function hashParametersProblem(parameters: Partial<Record<keyof FirebaseHashParameters, unknown>>): string | null {
  const { signerKey, saltSeparator, rounds, memCost } = parameters;
  if (typeof signerKey !== "string" || !isBase64(signerKey) || Buffer.from(signerKey, "base64").length !== 64) {
    return "--hash-key 必須是 Firebase 主控台「密碼雜湊參數」的 base64_signer_key（base64，解開為 64 位元組）";
  }
  if (typeof saltSeparator !== "string" || !isBase64(saltSeparator) || Buffer.from(saltSeparator, "base64").length > 16) {
    return "--salt-separator 必須是 Firebase 主控台的 base64_salt_separator（base64，例如 Bw==）";
  }
  if (typeof rounds !== "number" || !Number.isInteger(rounds) || rounds < 1 || rounds > 8) return "--rounds 必須是 1 到 8 的整數（Firebase 預設 8）";
  if (typeof memCost !== "number" || !Number.isInteger(memCost) || memCost < 1 || memCost > 14) return "--mem-cost 必須是 1 到 14 的整數（Firebase 預設 14）";
  return null;
}

/** The derived hash, base64, exactly as Firebase's export shows it in `passwordHash`. */
export async function firebaseScryptHash(password: string, salt: string, parameters: FirebaseHashParameters): Promise<string> {
  const saltBytes = Buffer.concat([Buffer.from(salt, "base64"), Buffer.from(parameters.saltSeparator, "base64")]);
  const key = await new Promise<Buffer>((resolve, reject) =>
    scrypt(Buffer.from(password, "utf8"), saltBytes, 32, { N: 2 ** parameters.memCost, r: parameters.rounds, p: 1, maxmem: 256 * 1024 * 1024 }, (error, derived) =>
      error ? reject(error) : resolve(derived),
    ),
  );
  const cipher = createCipheriv("aes-256-ctr", key, Buffer.alloc(16));
  return Buffer.concat([cipher.update(Buffer.from(parameters.signerKey, "base64")), cipher.final()]).toString("base64");
}

/** The stored form of an imported hash; refuses a salt or hash that is not base64 (it would never verify). */
export function storedFirebaseHash(salt: string, passwordHash: string): string {
  if (!isBase64(salt) || !isBase64(passwordHash) || !salt || !passwordHash) throw new Error("not a Firebase password hash");
  return `${firebaseHashPrefix}${salt}$${passwordHash}`;
}

export function isFirebaseHash(stored: string | null | undefined): stored is string {
  return typeof stored === "string" && stored.startsWith(firebaseHashPrefix);
}

/**
 * Whether `password` is the one `stored` was made from. Firebase hashed what was typed; a password typed in NFD
 * there (some Apple keyboards) and NFC here still matches, since both forms are tried.
 */
export async function verifyFirebaseHash(stored: string, password: string, parameters: FirebaseHashParameters): Promise<boolean> {
  const [salt, expected] = stored.slice(firebaseHashPrefix.length).split("$");
  if (!salt || !expected) return false;
  const want = Buffer.from(expected, "base64");
  for (const form of new Set([password, password.normalize("NFC"), password.normalize("NFD")])) {
    const got = Buffer.from(await firebaseScryptHash(form, salt, parameters), "base64");
    if (got.length === want.length && timingSafeEqual(got, want)) return true;
  }
  return false;
}
