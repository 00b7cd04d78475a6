import { Redis } from "ioredis";

export interface RateLimiter {
  /** Counts one request for `key`; false once the key is over its limit in the current window. */
  hit(key: string): Promise<boolean>;
}

export interface RateLimit {
  max: number;
  windowMs: number;
}

/** Fixed windows in this process: enough for one instance. */
export function memoryRateLimiter({ max, windowMs }: RateLimit, now = () => Date.now()): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    async hit(key) {
      const time = now();
      // Forget expired windows now and then so the map cannot grow without bound.
      if (windows.size > 10_000) for (const [k, w] of windows) if (w.resetAt <= time) windows.delete(k);
      const current = windows.get(key);
      if (!current || current.resetAt <= time) {
        windows.set(key, { count: 1, resetAt: time + windowMs });
        return true;
      }
      current.count += 1;
      return current.count <= max;
    },
  };
}

/** The same fixed windows in Redis, shared by every instance (REDIS_URL). */
export function redisRateLimiter(redis: Redis, { max, windowMs }: RateLimit, prefix = "rl:analytics:"): RateLimiter {
  return {
    async hit(key) {
      const redisKey = `${prefix}${key}`;
      const [[, count] = []] = (await redis.multi().incr(redisKey).pexpire(redisKey, windowMs, "NX").exec()) ?? [];
      return Number(count) <= max;
    },
  };
}

export function createRateLimiter(limit: RateLimit, redisUrl: string | undefined): RateLimiter {
  if (!redisUrl) return memoryRateLimiter(limit);
  return redisRateLimiter(new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 }), limit);
}
