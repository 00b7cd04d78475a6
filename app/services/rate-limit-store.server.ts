import { Redis } from "ioredis";
import { getEnv } from "~/config/env.server";

/**
 * Fixed-window counters for the rate limits: in this process by default, in Redis when REDIS_URL is set so
 * every instance counts together. Used by the sign-in layer (per IP and per account) and the analytics endpoint.
 */
export interface RateLimitStore {
  /** Counts one hit on `key` and returns the count in the current window and the seconds until it ends. */
  hit(key: string, windowSeconds: number): Promise<{ count: number; resetInSeconds: number }>;
  close(): Promise<void>;
}

export function memoryRateLimitStore(now: () => number = Date.now): RateLimitStore {
  const counters = new Map<string, { count: number; expiresAt: number }>();
  const sweep = setInterval(() => {
    const time = now();
    for (const [key, entry] of counters) if (entry.expiresAt <= time) counters.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    async hit(key, windowSeconds) {
      const time = now();
      let entry = counters.get(key);
      if (!entry || entry.expiresAt <= time) {
        entry = { count: 0, expiresAt: time + windowSeconds * 1000 };
        counters.set(key, entry);
      }
      entry.count += 1;
      return { count: entry.count, resetInSeconds: Math.ceil((entry.expiresAt - time) / 1000) };
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

export function redisRateLimitStore(url: string, prefix = "rate-limit:"): RateLimitStore {
  const redis = new Redis(url, { maxRetriesPerRequest: 2 });
  return {
    async hit(key, windowSeconds) {
      const name = `${prefix}${key}`;
      const replies = await redis.multi().incr(name).expire(name, windowSeconds, "NX").ttl(name).exec();
      const count = Number(replies?.[0]?.[1] ?? 1);
      const ttl = Number(replies?.[2]?.[1] ?? windowSeconds);
      return { count, resetInSeconds: ttl > 0 ? ttl : windowSeconds };
    },
    async close() {
      await redis.quit();
    },
  };
}

/** The store the configuration asks for: Redis when REDIS_URL is set, else this process's memory. */
export function createRateLimitStore(redisUrl: string | undefined, prefix?: string): RateLimitStore {
  return redisUrl ? redisRateLimitStore(redisUrl, prefix) : memoryRateLimitStore();
}

let shared: RateLimitStore | undefined;

/** The process-wide store on the configured REDIS_URL: one Redis connection for every limiter of the site. */
export function sharedRateLimitStore(): RateLimitStore {
  shared ??= createRateLimitStore(getEnv().REDIS_URL);
  return shared;
}

export async function closeSharedRateLimitStore(): Promise<void> {
  await shared?.close();
  shared = undefined;
}
