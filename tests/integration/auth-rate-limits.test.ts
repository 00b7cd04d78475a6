import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { parseEnv } from "~/config/env.server";
import { perAccountRules, perIpRules } from "~/features/auth/rate-limits.server";
import { createTestDatabase, type TestDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestServer } from "./auth-server";

const newEmail = () => `limit-${randomUUID().slice(0, 8)}@example.tw`;
const tooMany = { status: 429, body: { code: "auth/too-many-requests", message: expect.stringMatching(/^嘗試次數過多，請(稍後|在 \d+ (秒|分鐘))後?再試$/) } };
const defaults = parseEnv({});
const limit = (rules: typeof perIpRules, path: string) => rules(defaults)[path]?.max ?? Number.NaN;
const signInFailures = defaults.RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT.max;

// Rate limits do not depend on the database; one SQLite file serves every server here.
describe("rate limits", () => {
  let database: TestDatabase;
  let server: AuthTestServer;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startAuthServer(database);
  });
  afterAll(async () => {
    await server.close();
    await database.drop();
  });

  it("limits password guesses per account even when every attempt comes from a new address", async () => {
    const email = newEmail();
    for (let attempt = 0; attempt < signInFailures; attempt += 1) {
      expect((await server.client().post("/sign-in/email", { email, password: "guess-123" })).status).toBe(401);
    }
    const locked = await server.client().post("/sign-in/email", { email, password: "guess-123" });
    expect(locked).toMatchObject(tooMany);
    const retryAfter = Number(locked.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(defaults.RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT.windowSeconds);
    // Another account from the same addresses is unaffected.
    expect((await server.client().post("/sign-in/email", { email: newEmail(), password: "guess-123" })).status).toBe(401);
  });

  // About thirty password checks: allowed a minute on a busy machine.
  it("counts only failed sign-ins toward the lockout, and a success clears them", { timeout: 60_000 }, async () => {
    const email = newEmail();
    const password = "right-password-1";
    const owner = server.client();
    expect((await owner.post("/sign-up/email", { email, password, name: "家長" })).status).toBe(200);
    const link = (await server.latestMail(email)).links.find((href) => href.includes("token="));
    const token = new URL(link ?? "").searchParams.get("token") ?? "";
    expect((await server.client().get(`/verify-email?token=${encodeURIComponent(token)}`)).status).toBeLessThan(400);

    // Successes do not count: far more than the limit of them still work.
    for (let attempt = 0; attempt < signInFailures + 2; attempt += 1) {
      expect((await server.client().post("/sign-in/email", { email, password })).status).toBe(200);
    }
    // One short of the lockout, then a success: the failures are forgotten.
    for (let attempt = 0; attempt < signInFailures - 1; attempt += 1) {
      expect((await server.client().post("/sign-in/email", { email, password: "wrong-password" })).status).toBe(401);
    }
    expect((await server.client().post("/sign-in/email", { email, password })).status).toBe(200);
    for (let attempt = 0; attempt < signInFailures - 1; attempt += 1) {
      expect((await server.client().post("/sign-in/email", { email, password: "wrong-password" })).status).toBe(401);
    }
    expect((await server.client().post("/sign-in/email", { email, password })).status).toBe(200);
  });

  it("takes its limits from the configuration", async () => {
    const strict = await startAuthServer(database, { RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT: "2/60" });
    try {
      const email = newEmail();
      for (let attempt = 0; attempt < 2; attempt += 1) {
        expect((await strict.client().post("/sign-in/email", { email, password: "guess-123" })).status).toBe(401);
      }
      const locked = await strict.client().post("/sign-in/email", { email, password: "guess-123" });
      expect(locked).toMatchObject(tooMany);
      expect(Number(locked.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    } finally {
      await strict.close();
    }
  });

  it("lets a family share one address generously, then limits it", async () => {
    const home = server.client();
    for (let attempt = 0; attempt < limit(perIpRules, "/sign-in/email"); attempt += 1) {
      expect((await home.post("/sign-in/email", { email: newEmail(), password: "guess-123" })).status).toBe(401);
    }
    const over = await home.post("/sign-in/email", { email: newEmail(), password: "guess-123" });
    expect(over).toMatchObject(tooMany);
    expect(Number(over.headers.get("x-retry-after"))).toBeGreaterThan(0);
    expect(over.headers.get("retry-after")).toBe(over.headers.get("x-retry-after"));
    expect((await server.client().post("/sign-in/email", { email: newEmail(), password: "guess-123" })).status).toBe(401);
  });

  it("limits guest sign-ins per address", async () => {
    const home = server.client();
    for (let attempt = 0; attempt < limit(perIpRules, "/sign-in/anonymous"); attempt += 1) {
      home.cookies.clear();
      expect((await home.post("/sign-in/anonymous")).status).toBe(200);
    }
    home.cookies.clear();
    expect(await home.post("/sign-in/anonymous")).toMatchObject(tooMany);
  });

  it("limits reset and resend emails per account", async () => {
    for (const path of ["/request-password-reset", "/send-verification-email"]) {
      const email = newEmail();
      for (let attempt = 0; attempt < limit(perAccountRules, path); attempt += 1) {
        expect((await server.client().post(path, { email })).status).toBe(200);
      }
      expect(await server.client().post(path, { email })).toMatchObject(tooMany);
    }
  });

  it("ignores X-Forwarded-For unless the peer is a trusted proxy", { timeout: 60_000 }, async () => {
    const direct = await startAuthServer(database, { TRUSTED_PROXIES: "" });
    try {
      for (let attempt = 0; attempt < limit(perIpRules, "/sign-in/email"); attempt += 1) {
        await direct.client().post("/sign-in/email", { email: newEmail(), password: "guess-123" });
      }
      // A "new" forwarded address does not help: the socket's address is what counts.
      expect(await direct.client().post("/sign-in/email", { email: newEmail(), password: "guess-123" })).toMatchObject(tooMany);
    } finally {
      await direct.close();
    }
  });

  it("shares the counters between two instances through Redis", async () => {
    const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
    const prefix = `test-${randomUUID()}:`;
    const env = { REDIS_URL: redisUrl };
    const first = await startAuthServer(database, env, { rateLimitPrefix: prefix });
    const second = await startAuthServer(database, env, { rateLimitPrefix: prefix });
    try {
      const email = newEmail();
      const max = limit(perAccountRules, "/request-password-reset");
      for (let attempt = 0; attempt < max; attempt += 1) {
        const instance = attempt % 2 === 0 ? first : second;
        expect((await instance.client().post("/request-password-reset", { email })).status).toBe(200);
      }
      expect(await second.client().post("/request-password-reset", { email })).toMatchObject(tooMany);
      expect(await first.client().post("/request-password-reset", { email })).toMatchObject(tooMany);
    } finally {
      await first.close();
      await second.close();
      const redis = new Redis(redisUrl);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
  });
});
