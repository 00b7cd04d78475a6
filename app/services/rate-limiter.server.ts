import type { Redis } from "ioredis";
import { getEnv } from "~/config/env.server";
import { noteRequestError } from "./request-context.server";
import { createRedis, redisCall, whenReady } from "./redis.server";

/**
 * The site's one rate limiter: fixed windows counted per key, in this process by default, in Redis when
 * REDIS_URL is set so every instance counts together. The sign-in layer (per IP and per account) and the
 * analytics endpoint use it; their limits come from the configuration (docs/configuration.md).
 */
export interface FixedWindow {
  max: number;
  windowSeconds: number;
}

export interface WindowCount {
  count: number;
  /** Seconds until the window ends (the Retry-After of a refused request). */
  resetInSeconds: number;
}

/** Where the counters live. */
export interface RateLimitStore {
  /** Counts one hit on `key`. */
  hit(key: string, windowSeconds: number): Promise<WindowCount>;
  /** The current count, without counting. */
  peek(key: string): Promise<WindowCount>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface LimitDecision {
  allowed: boolean;
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one request for `key` and says whether it is within the limit. */
  hit(key: string): Promise<LimitDecision>;
  /** Whether `key` is already over the limit, without counting (limits that count only failures). */
  check(key: string): Promise<LimitDecision>;
  reset(key: string): Promise<void>;
}

export function fixedWindowLimiter(store: RateLimitStore, { max, windowSeconds }: FixedWindow, prefix: string): RateLimiter {
  const decide = ({ count, resetInSeconds }: WindowCount, allowedAt: number): LimitDecision => ({
    allowed: count <= allowedAt,
    retryAfterSeconds: Math.max(1, resetInSeconds),
  });
  return {
    hit: async (key) => decide(await store.hit(`${prefix}${key}`, windowSeconds), max),
    check: async (key) => decide(await store.peek(`${prefix}${key}`), max - 1),
    reset: (key) => store.reset(`${prefix}${key}`),
  };
}

/**
 * Counters in this process. Memory stays bounded however many addresses call: expired windows are dropped
 * every minute, and past `maxKeys` the oldest window is dropped first (its key simply starts over).
 */
export function memoryRateLimitStore(options: { maxKeys?: number; now?: () => number } = {}): RateLimitStore & { size(): number } {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 100_000;
  const counters = new Map<string, { count: number; expiresAt: number }>();
  const sweep = setInterval(() => {
    const time = now();
    for (const [key, entry] of counters) if (entry.expiresAt <= time) counters.delete(key);
  }, 60_000);
  sweep.unref();
  const current = (key: string) => {
    const entry = counters.get(key);
    return entry && entry.expiresAt > now() ? entry : undefined;
  };
  const answer = (entry: { count: number; expiresAt: number } | undefined): WindowCount => ({
    count: entry?.count ?? 0,
    resetInSeconds: entry ? Math.ceil((entry.expiresAt - now()) / 1000) : 0,
  });
  return {
    async hit(key, windowSeconds) {
      let entry = current(key);
      if (!entry) {
        counters.delete(key);
        // Map keeps insertion order: the first key is the oldest window.
        while (counters.size >= maxKeys) counters.delete(counters.keys().next().value as string);
        entry = { count: 0, expiresAt: now() + windowSeconds * 1000 };
        counters.set(key, entry);
      }
      entry.count += 1;
      return answer(entry);
    },
    peek: async (key) => answer(current(key)),
    async reset(key) {
      counters.delete(key);
    },
    async close() {
      clearInterval(sweep);
    },
    size: () => counters.size,
  };
}

/** Counters in Redis, shared by every instance; each key expires with its window. */
export function redisRateLimitStore(redis: Redis, prefix = "rate-limit:", readyTimeoutMs = 2_000): RateLimitStore {
  // Waits for the connection (never longer than the connect timeout); a failure is noted against the request
  // (503 while Redis is away) and passed on.
  const noted = <T>(work: Promise<T>) =>
    redisCall(() => work).catch((error: unknown) => {
      noteRequestError(error);
      throw error;
    });
  const ready = () => whenReady(redis, readyTimeoutMs);
  const ttlAnswer = (count: number, ttl: number): WindowCount => ({ count, resetInSeconds: ttl > 0 ? ttl : 0 });
  return {
    hit: (key, windowSeconds) =>
      noted(
        (async () => {
          const name = `${prefix}${key}`;
          await ready();
          const replies = await redis.multi().incr(name).expire(name, windowSeconds, "NX").ttl(name).exec();
          const ttl = Number(replies?.[2]?.[1] ?? windowSeconds);
          return ttlAnswer(Number(replies?.[0]?.[1] ?? 1), ttl > 0 ? ttl : windowSeconds);
        })(),
      ),
    peek: (key) =>
      noted(
        (async () => {
          const name = `${prefix}${key}`;
          await ready();
          const replies = await redis.multi().get(name).ttl(name).exec();
          return ttlAnswer(Number(replies?.[0]?.[1] ?? 0), Number(replies?.[1]?.[1] ?? 0));
        })(),
      ),
    reset: (key) => noted(ready().then(() => redis.del(`${prefix}${key}`)).then(() => undefined)),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

function redisFor(url: string): Redis {
  const env = getEnv();
  return createRedis(url, { connectMs: env.REDIS_CONNECT_TIMEOUT_MS, commandMs: env.REDIS_COMMAND_TIMEOUT_MS });
}

/** The store the configuration asks for: Redis when REDIS_URL is set, else this process's memory. */
export function createRateLimitStore(redisUrl: string | undefined, prefix?: string): RateLimitStore {
  if (!redisUrl) return memoryRateLimitStore({ maxKeys: getEnv().RATE_LIMIT_MAX_KEYS });
  return redisRateLimitStore(redisFor(redisUrl), prefix, getEnv().REDIS_CONNECT_TIMEOUT_MS);
}

let shared: { store: RateLimitStore; redis?: Redis } | undefined;

/** The process-wide Redis client (REDIS_URL), shared by the limiter and the readiness check. */
export function sharedRedis(): Redis | undefined {
  sharedRateLimitStore();
  return shared?.redis;
}

/** The process-wide store: one Redis connection for every limiter of the site. */
export function sharedRateLimitStore(): RateLimitStore {
  if (!shared) {
    const env = getEnv();
    if (env.REDIS_URL) {
      const redis = redisFor(env.REDIS_URL);
      shared = { store: redisRateLimitStore(redis, env.REDIS_KEY_PREFIX, env.REDIS_CONNECT_TIMEOUT_MS), redis };
    } else {
      shared = { store: memoryRateLimitStore({ maxKeys: env.RATE_LIMIT_MAX_KEYS }) };
    }
  }
  return shared.store;
}

export async function closeSharedRateLimitStore(): Promise<void> {
  await shared?.store.close();
  shared = undefined;
}
