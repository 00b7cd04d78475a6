import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { perAccountRules, perIpRules } from "~/features/auth/rate-limits.server";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";
import { startAuthServer, type AuthTestServer } from "./auth-server";

const newEmail = () => `limit-${randomUUID().slice(0, 8)}@example.tw`;
const tooMany = { status: 429, body: { code: "auth/too-many-requests", message: "嘗試次數過多，請稍後再試" } };
const limit = (rules: typeof perIpRules, path: string) => rules[path]?.max ?? Number.NaN;

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
    for (let attempt = 0; attempt < limit(perAccountRules, "/sign-in/email"); attempt += 1) {
      expect((await server.client().post("/sign-in/email", { email, password: "guess-123" })).status).toBe(401);
    }
    expect(await server.client().post("/sign-in/email", { email, password: "guess-123" })).toMatchObject(tooMany);
    // Another account from the same addresses is unaffected.
    expect((await server.client().post("/sign-in/email", { email: newEmail(), password: "guess-123" })).status).toBe(401);
  });

  it("lets a family share one address generously, then limits it", async () => {
    const home = server.client();
    for (let attempt = 0; attempt < limit(perIpRules, "/sign-in/email"); attempt += 1) {
      expect((await home.post("/sign-in/email", { email: newEmail(), password: "guess-123" })).status).toBe(401);
    }
    const over = await home.post("/sign-in/email", { email: newEmail(), password: "guess-123" });
    expect(over).toMatchObject(tooMany);
    expect(Number(over.headers.get("x-retry-after"))).toBeGreaterThan(0);
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

  it("ignores X-Forwarded-For unless the peer is a trusted proxy", async () => {
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
