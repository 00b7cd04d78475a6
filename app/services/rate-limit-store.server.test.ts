import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { redisRateLimitStore } from "./rate-limit-store.server";

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

describe.skipIf(!(await redisAnswers()))("redisRateLimitStore", () => {
  const prefix = `test:rl:${randomBytes(4).toString("hex")}:`;
  const first = redisRateLimitStore(redisUrl, prefix);
  const second = redisRateLimitStore(redisUrl, prefix);
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
    expect((await first.hit("198.51.100.7", 1)).count).toBe(3);
    expect((await second.hit("198.51.100.8", 1)).count).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await second.hit("198.51.100.7", 1)).count).toBe(1);
  });
});
