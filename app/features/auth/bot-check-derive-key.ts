import { sha256 } from "@noble/hashes/sha2.js";

/*
 * ALTCHA's key derivation for the bot check's solver (bot-check-client.ts), with SHA-256 from @noble/hashes. Web
 * Crypto's digest is a promise that hops to another thread for each of the proof of work's tens of thousands of tiny
 * hashes; a plain-JavaScript hash of the ~48-byte attempt stays on the page's thread and costs a few hundred
 * nanoseconds, several times faster on a slow phone. The server checks the answer with Node's own SHA-256
 * (altcha-lib/algorithms/sha).
 */

/** How long the search may hold the page's thread before it lets a tap or a keystroke through (one frame). */
const sliceMs = 16;
let sliceStart = 0;

/** Lets the page handle what waits (input, rendering): `scheduler.yield()` where it exists, else a message task. */
function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/**
 * ALTCHA's key derivation for a SHA-256 challenge (what `altcha-lib/algorithms/web/sha` does by Web Crypto): the
 * salt and the attempt hashed `cost` times, cut to `keyLength` bytes. The solver awaits each call; every frame's
 * worth of attempts one of them waits for the page, so a parent typing into the form while it solves is not held
 * up (ALTCHA's own loop lets go only every 200 ms).
 */
export async function deriveKey(parameters: { algorithm: string; cost: number; keyLength?: number }, salt: Uint8Array, password: Uint8Array) {
  if (parameters.algorithm !== "SHA-256") throw new Error(`unsupported algorithm ${parameters.algorithm}`);
  const now = performance.now();
  if (now - sliceStart > sliceMs) {
    await yieldToPage();
    sliceStart = performance.now();
  }
  let key: Uint8Array = new Uint8Array(salt.length + password.length);
  key.set(salt);
  key.set(password, salt.length);
  for (let round = 0; round < Math.max(1, parameters.cost); round++) key = sha256(key);
  return { parameters: {}, derivedKey: key.slice(0, parameters.keyLength ?? 32) };
}
