import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { getEnv } from "~/config/env.server";

/**
 * "What anonymous visitors see has changed": a write to wishes, posts or names tells every cache of public
 * content (the rendered-page cache, the wishing-well board) to drop what it holds — in this process at once,
 * in the other processes of this instance (cluster workers, over IPC) and, with REDIS_URL, in every other
 * instance (Redis pub/sub; a message lost while Redis is away is covered by each cache's own short lifetime).
 */
type Listener = () => void;

const listeners = new Set<Listener>();
const origin = randomUUID();
let publish: ((message: string) => void) | undefined;

/** Runs `listener` after every change, here or elsewhere; returns the unsubscribe. */
export function onPublicContentChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notifyHere() {
  for (const listener of listeners) listener();
}

/** Call after a write that anonymous visitors may see. */
export function publicContentChanged(): void {
  notifyHere();
  publish?.(origin);
  if (process.send && getEnv().WEB_CONCURRENCY_WORKER) process.send({ type: ipcMessageType, origin });
}

/** The message a cluster worker sends its primary, which passes it on to the other workers. */
export const ipcMessageType = "public-content-changed";

/** In a cluster worker: changes announced by the other workers reach this one's caches. */
export function listenToSiblingWorkers(): void {
  process.on("message", (message: { type?: string; origin?: string }) => {
    if (message?.type === ipcMessageType && message.origin !== origin) notifyHere();
  });
}

/**
 * With Redis: announces this process's changes on `channel` and hears the others'. `subscriber` is a connection
 * of its own (a subscribed connection runs no other commands). Returns the closer.
 */
export function broadcastOverRedis(publisher: Redis, subscriber: Redis, channel: string): () => void {
  publish = (message) => void publisher.publish(channel, message).catch(() => {});
  subscriber.on("message", (received: string, message: string) => {
    if (received === channel && message !== origin) notifyHere();
  });
  // On every (re)connection: subscribe, and drop what may have changed while the messages could not arrive.
  subscriber.on("ready", () => {
    void subscriber.subscribe(channel).catch(() => {});
    notifyHere();
  });
  return () => {
    publish = undefined;
    subscriber.disconnect();
  };
}
