import { Redis, ReplyError } from "ioredis";
import { DependencyUnavailableError, unavailableBecause } from "~/lib/dependency-unavailable";

export interface RedisTimeouts {
  connectMs: number;
  commandMs: number;
}

export const defaultRedisTimeouts: RedisTimeouts = { connectMs: 2_000, commandMs: 2_000 };

/**
 * A Redis client that fails fast instead of waiting: a connect and a command timeout, no offline queue (a
 * command while disconnected fails at once), and reconnection in the background every 0.2–2 s, so the site
 * recovers by itself when Redis returns.
 */
export function createRedis(url: string, timeouts: Partial<RedisTimeouts> = {}): Redis {
  const { connectMs, commandMs } = { ...defaultRedisTimeouts, ...timeouts };
  const redis = new Redis(url, {
    connectTimeout: connectMs,
    commandTimeout: commandMs,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: true,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  // Errors also reach the commands that fail; this listener only keeps them from ending the process.
  redis.on("error", () => {});
  reconnectAfterTimeouts(redis);
  void redis.connect().catch(() => {});
  return redis;
}

/**
 * A command that timed out leaves its entry in the client's queue, waiting for an answer that may never come (a
 * peer that keeps the connection but drops bytes): every later answer would be matched to the wrong command, and
 * the connection, still open, is never replaced. So a timeout ends the connection; the client reconnects at once
 * (and again per `retryStrategy` while the peer stays away).
 */
function reconnectAfterTimeouts(redis: Redis) {
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((...args: Parameters<Redis["sendCommand"]>) => {
    const result = send(...args) as Promise<unknown> | undefined;
    void result?.catch((error: unknown) => {
      if (error instanceof Error && error.message === "Command timed out" && redis.status === "ready") redis.disconnect(true);
    });
    return result;
  }) as Redis["sendCommand"];
}

/**
 * Resolves once the client is ready (at once when it is), or rejects after `ms`. Commands wait for this
 * instead of an offline queue, so a request never waits longer than the connect timeout for Redis.
 */
export function whenReady(redis: Redis, ms: number): Promise<void> {
  if (redis.status === "ready") return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      redis.off("ready", onReady);
      reject(new DependencyUnavailableError("redis", `Redis did not answer within ${ms} ms`));
    }, ms);
    redis.once("ready", onReady);
  });
}

/** Ready and answering a PING within `ms` (start-up and readiness checks). */
export async function redisAnswers(redis: Redis, ms: number): Promise<void> {
  await redisCall(async () => {
    await whenReady(redis, ms);
    await Promise.race([
      redis.ping(),
      new Promise((_, reject) => setTimeout(() => reject(new DependencyUnavailableError("redis", `Redis did not answer within ${ms} ms`)), ms).unref()),
    ]);
  });
}

/** Redis's own error codes (the reply's first word) for "not now": loading, busy, no primary, out of memory, a replica. */
const unavailableReplies = new Set(["LOADING", "BUSY", "MASTERDOWN", "OOM", "READONLY", "TRYAGAIN", "CLUSTERDOWN"]);

/**
 * The Redis boundary: every failure of `work` that is not Redis refusing the command itself (a ReplyError such as
 * WRONGTYPE) is the connection's: closed, timed out, not writable, out of retries. Those become a
 * DependencyUnavailableError (503 with Retry-After), told apart by the error's class, not its wording.
 */
export async function redisCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DependencyUnavailableError) throw error;
    if (error instanceof ReplyError && !unavailableReplies.has(String((error as Error).message).split(" ")[0] ?? "")) throw error;
    throw new DependencyUnavailableError("redis", unavailableBecause("Redis is unavailable", error), { cause: error });
  }
}
