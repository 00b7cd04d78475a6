import { availableParallelism } from "node:os";
import type { Algorithm } from "@node-rs/argon2";
import { verifyPassword as verifyScrypt } from "better-auth/crypto";
import { hashThreads } from "./hash-threads.server";
import { normalizePassword } from "./password-policy";

/**
 * argon2id at the OWASP Password Storage minimum (19 MiB, t=2, p=1), on the hash threads (hash-threads.server.ts):
 * never on the event loop, and below its priority.
 */
export const argon2Options = {
  // Algorithm.Argon2id: a const enum, which isolated module builds cannot import as a value.
  algorithm: 2 satisfies Algorithm.Argon2id,
  memoryCost: 19 * 1024,
  timeCost: 2,
  parallelism: 1,
} as const;

// The other schemes (scrypt: Better Auth's former default, Firebase's) run on libuv's pool at the event loop's own
// priority: at most one per core but one at a time, or a storm of them would take every core from the pages.
const hashSlots = Math.max(1, availableParallelism() - 1);
let hashesRunning = 0;
const waitingForSlot: (() => void)[] = [];

export async function inHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (hashesRunning < hashSlots) hashesRunning += 1;
  else await new Promise<void>((resolve) => waitingForSlot.push(resolve));
  try {
    return await work();
  } finally {
    // The slot goes straight to the next in line, so a newcomer cannot slip in between.
    const next = waitingForSlot.shift();
    if (next) next();
    else hashesRunning -= 1;
  }
}

/** Hashed in NFC: a password typed as NFD (some macOS and iOS keyboards) signs in all the same. */
export function hashPassword(password: string): Promise<string> {
  return hashThreads.hash(normalizePassword(password), argon2Options);
}

/** Hashes of another scheme (Better Auth's default scrypt `salt:key`) keep verifying. */
export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }): Promise<boolean> {
  const normalized = normalizePassword(password);
  if (stored.startsWith("$argon2")) return hashThreads.verify(stored, normalized);
  return inHashSlot(() => verifyScrypt({ hash: stored, password: normalized }));
}
