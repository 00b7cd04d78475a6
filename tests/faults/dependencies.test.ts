import { randomBytes, randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startFaultProxy, type FaultProxy } from "~tests/helpers/fault-proxy";
import { postJson, startBlackHole, startSite, type SiteProcess } from "./site-process";

/**
 * The site against dependencies that fail, through a fault proxy (tests/helpers/fault-proxy.ts): PostgreSQL
 * ending its connections (a restart or fail-over), refusing new ones, and PostgreSQL or Redis that accept
 * connections and never answer or drop every byte. Each request must end within 5 s (503 with a Chinese message
 * and its cause in the log), the site must recover by itself, and SIGTERM must still end it cleanly.
 */
const postgresUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const password = "fault-test-password-1";
// Every sign-up comes from 127.0.0.1 here: the per-address limits must not be what answers.
const generousLimits = { RATE_LIMIT_SIGN_UP_PER_IP: "100000/60", RATE_LIMIT_AUTH_PER_IP: "100000/60" };
const email = () => `fault-${randomUUID().slice(0, 8)}@example.tw`;

async function timed(work: Promise<Response>) {
  const started = Date.now();
  const response = await work;
  const text = await response.text();
  return { status: response.status, text, ms: Date.now() - started };
}

function signUp(site: SiteProcess) {
  return timed(postJson(site.baseURL, "/api/auth/sign-up/email", { email: email(), password, name: "家長" }));
}

async function until(check: () => Promise<boolean>, ms: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check().catch(() => false)) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`not recovered within ${ms} ms`);
}

/**
 * A dependency behind `relay` falls silent under a running site: requests answer 503 within 5 s and /readyz names
 * it within 2 s; once it answers again the site recovers by itself; silenced again, SIGTERM still ends the site
 * cleanly.
 */
async function survivesSilence(relay: FaultProxy, env: Record<string, string>, unreachable: Record<string, string>) {
  const site = await startSite({ ...env, ...generousLimits });
  try {
    expect((await signUp(site)).status).toBe(200);
    relay.blackHole();
    const refused = await signUp(site);
    expect(refused.status).toBe(503);
    expect(refused.ms).toBeLessThan(5_000);
    expect(JSON.parse(refused.text)).toMatchObject({ message: "服務暫時無法使用，請稍後再試。" });
    const ready = await timed(fetch(`${site.baseURL}/readyz`));
    expect(ready.status).toBe(503);
    expect(ready.ms).toBeLessThan(2_000);
    expect(JSON.parse(ready.text)).toMatchObject(unreachable);

    await relay.restore();
    await until(async () => (await signUp(site)).status === 200, 15_000);

    relay.blackHole();
    const stopped = await site.stop("SIGTERM");
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(11_000);
  } finally {
    await site.stop("SIGKILL");
    await relay.close();
  }
}

/** Start-up against a server that accepts connections and never answers: the site gives up within 30 s, naming the variable. */
async function refusesToStart(env: (port: number) => Record<string, string>, variable: string) {
  const hole = await startBlackHole();
  const site = await startSite(env(hole.port), { expectFailure: true });
  try {
    const started = Date.now();
    const code = await new Promise<number | null>((resolve) => site.child.once("exit", resolve));
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(site.output()).toContain(variable);
    return { output: site.output(), port: hole.port };
  } finally {
    await hole.close();
  }
}

describe.skipIf(!inject("postgresUrl"))("PostgreSQL faults", () => {
  const database = `faults_${randomBytes(5).toString("hex")}`;
  const url = new URL(postgresUrl);
  const databaseUrl = (port = url.port || "5432") => `postgres://${url.username}@127.0.0.1:${port}/${database}`;
  const admin = new pg.Pool({ connectionString: postgresUrl, max: 1 });

  beforeAll(async () => {
    await admin.query(`create database ${database}`);
  });
  afterAll(async () => {
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  });

  it("keeps running when PostgreSQL ends its connections mid-load, and answers again", async () => {
    const site = await startSite({ DATABASE_URL: databaseUrl(), ...generousLimits });
    try {
      expect((await signUp(site)).status).toBe(200);
      const terminate = () =>
        admin.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [database]);
      const load = Array.from({ length: 30 }, async (_, index) => {
        await new Promise((resolve) => setTimeout(resolve, index * 20));
        return signUp(site);
      });
      let terminated = 0;
      for (let round = 0; round < 3; round += 1) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        terminated += (await terminate()).rowCount ?? 0;
      }
      const answers = await Promise.all(load);
      expect(terminated).toBeGreaterThan(0);
      expect(site.child.exitCode).toBeNull();
      // During the cut a request may be refused (503), never left hanging, never answered 500.
      for (const answer of answers) expect([200, 503]).toContain(answer.status);
      for (let index = 0; index < 5; index += 1) expect((await signUp(site)).status).toBe(200);
      expect((await fetch(`${site.baseURL}/readyz`)).status).toBe(200);
    } finally {
      const { code } = await site.stop();
      expect(code).toBe(0);
    }
  });

  it("answers 503 within 5 s while PostgreSQL is silent, recovers by itself, and still stops on SIGTERM", async () => {
    const relay = await startFaultProxy({ host: "127.0.0.1", port: Number(url.port || 5432) });
    await survivesSilence(relay, { DATABASE_URL: databaseUrl(String(relay.port)) }, { database: "unreachable" });
  });

  it("answers 503, never 500, with the cause in the log, wherever the pool must open a connection PostgreSQL refuses", async () => {
    const proxy = await startFaultProxy({ host: "127.0.0.1", port: Number(url.port || 5432) });
    const site = await startSite({ DATABASE_URL: databaseUrl(String(proxy.port)), ...generousLimits });
    try {
      expect((await signUp(site)).status).toBe(200);
      // The pool's open connections are cut and no new one can be made: every request must open one.
      await proxy.refuse();
      const requests: [string, () => Promise<Response>][] = [
        ["sign-up", () => postJson(site.baseURL, "/api/auth/sign-up/email", { email: email(), password, name: "家長" })],
        ["a page's loader", () => fetch(`${site.baseURL}/wishing-well`, { headers: { accept: "text/html" } })],
        ["similar wishes", () => fetch(`${site.baseURL}/api/wishes/similar?title=${encodeURIComponent("深色模式")}`)],
        ["analytics", () => postJson(site.baseURL, "/api/analytics", { events: [{ name: "logo_click", params: {} }] })],
      ];
      for (const [name, request] of requests) {
        const logged = site.output().length;
        const answer = await timed(request());
        expect(answer.status, name).toBe(503);
        expect(answer.ms, name).toBeLessThan(5_000);
        // Its log line names the cause (the line is written as the answer goes out); every line is JSON (Better
        // Auth's router printed "# SERVER_ERROR:" lines) and none is a 5xx without its cause.
        await new Promise((resolve) => setTimeout(resolve, 100));
        const output = site.output().slice(logged).split("\n").filter(Boolean);
        for (const line of output) expect(() => JSON.parse(line), `${name}: ${line}`).not.toThrow();
        expect(output.join("\n"), name).not.toContain("5xx without a recorded error");
        const lines = output.filter((line) => line.includes('"status":503'));
        expect(lines.join("\n"), name).toMatch(/"msg":"dependency unavailable"/);
        expect(lines.join("\n"), name).toMatch(/ECONNREFUSED|connect/);
      }
      await proxy.restore();
      await until(async () => (await signUp(site)).status === 200, 15_000);
    } finally {
      await site.stop();
      await proxy.close();
    }
  });

  it("recovers every connection when PostgreSQL keeps them but drops bytes for a while (none goes back out of step)", async () => {
    const proxy = await startFaultProxy({ host: "127.0.0.1", port: Number(url.port || 5432) });
    const site = await startSite({ DATABASE_URL: databaseUrl(String(proxy.port)), ...generousLimits });
    try {
      // Fill the pool with open connections, then lose bytes on all of them while requests wait on them.
      await Promise.all(Array.from({ length: 12 }, () => signUp(site)));
      proxy.discard();
      const lost = await Promise.all(Array.from({ length: 12 }, () => signUp(site)));
      for (const answer of lost) {
        expect(answer.status).toBe(503);
        expect(answer.ms).toBeLessThan(5_000);
      }
      await proxy.restore();
      await until(async () => (await signUp(site)).status === 200, 15_000);
      // Every later request succeeds: no connection that missed an answer was handed out again (batches of 8
      // reach most of the pool's 10 connections without queueing for one).
      for (let batch = 0; batch < 5; batch += 1) {
        const after = await Promise.all(Array.from({ length: 8 }, () => signUp(site)));
        expect(after.map((answer) => answer.status).filter((status) => status !== 200)).toEqual([]);
      }
      expect((await fetch(`${site.baseURL}/readyz`)).status).toBe(200);
    } finally {
      await site.stop();
      await proxy.close();
    }
  });

  it("refuses to start within 30 s when DATABASE_URL points at a server that never answers, naming the variable", async () => {
    const { output, port } = await refusesToStart((port) => ({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/test` }), "DATABASE_URL");
    // Never the value: it holds a password.
    expect(output).not.toContain(`127.0.0.1:${port}/test`);
  });
});

describe("Redis faults", () => {
  const prefix = `faults-${randomBytes(4).toString("hex")}:`;
  const target = new URL(redisUrl);
  afterAll(async () => {
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it("answers 503 within 5 s while Redis is silent, recovers by itself, and still stops on SIGTERM", async () => {
    const relay = await startFaultProxy({ host: target.hostname, port: Number(target.port || 6379) });
    await survivesSilence(relay, { REDIS_URL: `redis://127.0.0.1:${relay.port}`, REDIS_KEY_PREFIX: prefix }, { redis: "unreachable", database: "ok" });
  });

  it("recovers, /readyz included, once a Redis that kept the connection but dropped bytes passes them again", async () => {
    const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const site = await startSite({ REDIS_URL: `redis://127.0.0.1:${proxy.port}`, REDIS_KEY_PREFIX: prefix, ...generousLimits });
    try {
      expect((await signUp(site)).status).toBe(200);
      proxy.discard();
      const lost = await signUp(site);
      expect(lost.status).toBe(503);
      expect(lost.ms).toBeLessThan(5_000);
      expect((await fetch(`${site.baseURL}/readyz`)).status).toBe(503);
      // The same connection passes bytes again: the site must not keep waiting for answers that were lost.
      await proxy.restore();
      await until(async () => (await fetch(`${site.baseURL}/readyz`)).status === 200, 15_000);
      for (let index = 0; index < 10; index += 1) expect((await signUp(site)).status).toBe(200);
    } finally {
      await site.stop();
      await proxy.close();
    }
  });

  it("refuses to start within 30 s when REDIS_URL points at a server that never answers, naming the variable", async () => {
    await refusesToStart((port) => ({ REDIS_URL: `redis://127.0.0.1:${port}` }), "REDIS_URL");
  });
});
