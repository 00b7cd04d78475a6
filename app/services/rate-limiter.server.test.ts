import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { parseFixedWindow } from "~/config/env.server";
import { createRedis } from "./redis.server";
import { fixedWindowLimiter, memoryRateLimitStore, redisRateLimitStore } from "./rate-limiter.server";

const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

describe("memoryRateLimitStore", () => {
  it("stays within its key cap however many addresses call, dropping the oldest window first", async () => {
    const store = memoryRateLimitStore({ maxKeys: 1_000 });
    for (let index = 0; index < 50_000; index += 1) await store.hit(`198.51.${index >> 8}.${index & 255}`, 60);
    expect(store.size()).toBe(1_000);
    expect((await store.peek("198.51.0.0")).count).toBe(0);
    expect((await store.peek(`198.51.${49_999 >> 8}.${49_999 & 255}`)).count).toBe(1);
    await store.close();
  });

  it("forgets expired windows", async () => {
    let now = 0;
    const store = memoryRateLimitStore({ now: () => now });
    await store.hit("a", 1);
    now = 1_500;
    expect(await store.peek("a")).toEqual({ count: 0, resetInSeconds: 0 });
    await store.close();
  });
});

describe("fixedWindowLimiter", () => {
  it("counts with hit, looks without counting with check, and starts over after reset", async () => {
    const limiter = fixedWindowLimiter(memoryRateLimitStore(), { max: 2, windowSeconds: 60 }, "test:");
    expect((await limiter.check("k")).allowed).toBe(true);
    await limiter.hit("k");
    expect((await limiter.check("k")).allowed).toBe(true);
    await limiter.hit("k");
    const refused = await limiter.check("k");
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(50);
    expect((await limiter.hit("k")).allowed).toBe(false);
    await limiter.reset("k");
    expect((await limiter.check("k")).allowed).toBe(true);
  });

  it("reads limits written count/seconds", () => {
    expect(parseFixedWindow("30/60")).toEqual({ max: 30, windowSeconds: 60 });
    expect(parseFixedWindow(" 5 / 3600 ")).toEqual({ max: 5, windowSeconds: 3600 });
    expect(parseFixedWindow("0/60")).toBeNull();
    expect(parseFixedWindow("30")).toBeNull();
  });
});

/** Like the PostgreSQL suites: skipped only where no Redis answers, and never in CI. */
async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2_000 });
  try {
    await probe.connect();
    return (await probe.ping()) === "PONG";
  } catch (error) {
    if (process.env.CI === "true") throw new Error(`CI=true requires Redis at ${redisUrl}: ${(error as Error).message}`);
    return false;
  } finally {
    probe.disconnect();
  }
}

describe.skipIf(!(await redisAnswers()))("redisRateLimitStore", () => {
  const prefix = `test:rl:${randomBytes(4).toString("hex")}:`;
  const first = redisRateLimitStore(createRedis(redisUrl), prefix);
  const second = redisRateLimitStore(createRedis(redisUrl), prefix);
  afterAll(async () => {
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await Promise.all([first.close(), second.close()]);
  });

  it("shares one count between instances and frees the key after the window", async () => {
    expect((await first.hit("198.51.100.7", 1)).count).toBe(1);
    expect((await second.hit("198.51.100.7", 1)).count).toBe(2);
    expect((await first.peek("198.51.100.7")).count).toBe(2);
    expect((await second.hit("198.51.100.8", 1)).count).toBe(1);
    await second.reset("198.51.100.8");
    expect((await first.peek("198.51.100.8")).count).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await second.hit("198.51.100.7", 1)).count).toBe(1);
  });
});
