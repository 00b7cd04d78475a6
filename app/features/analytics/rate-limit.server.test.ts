import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { redisRateLimiter } from "./rate-limit.server";

const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

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

describe.skipIf(!(await redisAnswers()))("redisRateLimiter", () => {
  const redis = new Redis(redisUrl);
  const prefix = `test:rl:${randomBytes(4).toString("hex")}:`;
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it("shares one count between instances and frees the key after the window", async () => {
    const limit = { max: 2, windowMs: 300 };
    const first = redisRateLimiter(redis, limit, prefix);
    const second = redisRateLimiter(redis, limit, prefix);
    expect(await first.hit("198.51.100.7")).toBe(true);
    expect(await second.hit("198.51.100.7")).toBe(true);
    expect(await first.hit("198.51.100.7")).toBe(false);
    expect(await second.hit("198.51.100.8")).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await second.hit("198.51.100.7")).toBe(true);
  });
});
