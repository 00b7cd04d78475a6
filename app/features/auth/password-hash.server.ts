import { hash, verify, type Algorithm } from "@node-rs/argon2";
import { verifyPassword as verifyScrypt } from "better-auth/crypto";
import { normalizePassword } from "./password-policy";

/**
 * argon2id at the OWASP Password Storage minimum (19 MiB, t=2, p=1). @node-rs/argon2 runs on libuv's
 * thread pool, so hashing never blocks the event loop.
 */
export const argon2Options = {
  // Algorithm.Argon2id: a const enum, which isolated module builds cannot import as a value.
  algorithm: 2 satisfies Algorithm.Argon2id,
  memoryCost: 19 * 1024,
  timeCost: 2,
  parallelism: 1,
} as const;

/** Hashed in NFC: a password typed as NFD (some macOS and iOS keyboards) signs in all the same. */
export function hashPassword(password: string): Promise<string> {
  return hash(normalizePassword(password), argon2Options);
}

/** Hashes of another scheme (Better Auth's default scrypt `salt:key`) keep verifying. */
export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }): Promise<boolean> {
  const normalized = normalizePassword(password);
  if (stored.startsWith("$argon2")) return verify(stored, normalized);
  return verifyScrypt({ hash: stored, password: normalized });
}
