import { availableParallelism } from "node:os";
import type { Algorithm } from "@node-rs/argon2";
import { verifyPassword as verifyScrypt } from "better-auth/crypto";
import { pastDeadline, requestSlot } from "~/services/request-context.server";
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

/** A hash begun early for this request (`beginPasswordWork`): the stored hash it verifies against, or null for a new hash. */
interface BegunWork {
  stored: string | null;
  password: string;
  result: Promise<string | boolean>;
}
const begun = requestSlot<BegunWork>();

/**
 * The begun work, if it is the very call now made (the same stored hash, or none, and the same password); taken
 * once. Anything else (another password, a stored hash changed meanwhile) is hashed as it always is.
 */
function begunAs(stored: string | null, password: string): Promise<string | boolean> | undefined {
  const work = begun.take();
  return work && work.stored === stored && work.password === password ? work.result : undefined;
}

/**
 * Starts, for the current request, the argon2id work its sign-in or sign-up is about to ask for: verifying `password`
 * against the account's stored hash, or (no stored password) hashing it, which a sign-up stores and a sign-in with an
 * unknown address does so that it takes as long (ways-in/password/password.server.ts). The call that follows takes
 * the result.
 * Stored hashes of another scheme are left to that call. Gives when the work is done (never a rejection: the call
 * that takes it sees that), or undefined if nothing was begun.
 */
export function beginPasswordWork(stored: string | null, password: string): Promise<void> | undefined {
  // A request already answered at its deadline asks for nothing more (as its reads are refused then).
  if ((stored !== null && !stored.startsWith("$argon2")) || pastDeadline()) return undefined;
  const result = stored === null ? hashNormalized(password) : hashThreads.verify(stored, normalizePassword(password));
  begun.put({ stored, password, result });
  // A request refused before it asks (its result is then nobody's) must not leave an unhandled rejection.
  return result.then(
    () => undefined,
    () => undefined,
  );
}

const hashNormalized = (password: string) => hashThreads.hash(normalizePassword(password), argon2Options);

/** Hashed in NFC: a password typed as NFD (some macOS and iOS keyboards) signs in all the same. */
export function hashPassword(password: string): Promise<string> {
  return (begunAs(null, password) as Promise<string> | undefined) ?? hashNormalized(password);
}

/** Hashes of another scheme (Better Auth's default scrypt `salt:key`) keep verifying. */
export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }): Promise<boolean> {
  const early = begunAs(stored, password) as Promise<boolean> | undefined;
  if (early) return early;
  const normalized = normalizePassword(password);
  if (stored.startsWith("$argon2")) return hashThreads.verify(stored, normalized);
  return inHashSlot(() => verifyScrypt({ hash: stored, password: normalized }));
}
