import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "~/db/connection.server";
import { startFaultProxy, type FaultProxy } from "~tests/helpers/fault-proxy";
import { postJson, startSite, type SiteProcess } from "./site-process";

/**
 * The site on its default worker count with a dependency gone or slow, through the fault proxy: every answer is
 * counted by status and time. A dependency's failure is a 503 with Retry-After, never a 500 (recognised by the
 * error's type, not its message); a session that cannot be read is a 503, never "signed out"; a slow dependency
 * meets the request's 5 s deadline (503) instead of giving slow successes.
 */
const postgresUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const password = "outage-test-password-1";
const defaults = { WEB_CONCURRENCY: "auto", REQUEST_DEADLINE_MS: "5000", RATE_LIMIT_SIGN_UP_PER_IP: "100000/60", RATE_LIMIT_AUTH_PER_IP: "100000/60" };

interface Answer {
  status: number;
  ms: number;
  retryAfter: string | null;
  text: string;
}

async function timed(work: Promise<Response>): Promise<Answer> {
  const started = Date.now();
  const response = await work;
  const text = await response.text();
  return { status: response.status, ms: Date.now() - started, retryAfter: response.headers.get("retry-after"), text };
}

/** Answers counted by status: { "503": 4 }. */
function byStatus(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/**
 * A signed-up parent with a verified address (set straight in the database, as opening the mailed link would) and
 * the cookie of their session.
 */
async function parent(site: SiteProcess, databaseUrl?: string) {
  const email = `outage-${randomUUID().slice(0, 8)}@example.tw`;
  const made = await postJson(site.baseURL, "/api/auth/sign-up/email", { email, password, name: "家長" });
  expect(made.status).toBe(200);
  const { db } = openDatabase({ databaseUrl, dataDir: site.dataDir });
  try {
    await db.updateTable("user").set({ emailVerified: databaseUrl ? true : 1 }).where("email", "=", email).execute();
  } finally {
    await db.destroy();
  }
  const cookie = made.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  return { email, cookie };
}

const signIn = (site: SiteProcess, email: string) => timed(postJson(site.baseURL, "/api/auth/sign-in/email", { email, password }));
const session = (site: SiteProcess, cookie: string) => timed(fetch(`${site.baseURL}/api/auth/get-session`, { headers: { cookie }, signal: AbortSignal.timeout(30_000) }));
const page = (site: SiteProcess, path: string, cookie: string) =>
  timed(fetch(`${site.baseURL}${path}`, { headers: { cookie, accept: "text/html" }, redirect: "manual", signal: AbortSignal.timeout(30_000) }));

/** Every worker of the default count has started (a fault must not meet a worker still starting, by design). */
/** `auto` is one process on SQLite and one per core on PostgreSQL (decision 608). */
const autoWorkers = { sqlite: 1, postgres: os.availableParallelism() };

async function allWorkersUp(site: SiteProcess, workers: number) {
  const deadline = Date.now() + 60_000;
  while ((site.output().match(/網站已啟動/g) ?? []).length < workers && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function until(check: () => Promise<boolean>, ms: number) {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`not recovered within ${ms} ms`);
}

/** Every worker answers again: six sign-ins in a row succeed (each worker reconnects to Redis on its own). */
async function recovered(site: SiteProcess, email: string) {
  await until(async () => {
    for (let index = 0; index < 6; index += 1) if ((await signIn(site, email)).status !== 200) return false;
    return true;
  }, 30_000);
}

describe("Redis gone: sign-in and session answer 503 with Retry-After, never 500", () => {
  const prefix = `outages-${randomBytes(4).toString("hex")}:`;
  const target = new URL(redisUrl);
  let proxy: FaultProxy;
  let site: SiteProcess;
  let account: { email: string; cookie: string };

  beforeAll(async () => {
    proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 6379) });
    site = await startSite({ ...defaults, REDIS_URL: `redis://127.0.0.1:${proxy.port}`, REDIS_KEY_PREFIX: prefix });
    await allWorkersUp(site, autoWorkers.sqlite);
    account = await parent(site);
  });
  afterAll(async () => {
    await site?.stop();
    await proxy?.close();
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  const faults: [string, () => Promise<void> | void][] = [
    ["refused", () => proxy.refuse()],
    ["black hole", () => proxy.blackHole()],
    ["dropped bytes", () => proxy.discard()],
  ];
  for (const [name, fault] of faults) {
    it(`${name}: every sign-in is a 503 within 5 s, no answer is a 500, and the site recovers`, async () => {
      await recovered(site, account.email);
      await fault();
      const answers = [];
      for (let index = 0; index < 6; index += 1) answers.push(await signIn(site, account.email), await session(site, account.cookie));
      const signIns = answers.filter((_, index) => index % 2 === 0);
      expect(byStatus(signIns), name).toEqual({ 503: signIns.length });
      for (const answer of signIns) {
        expect(answer.retryAfter).toMatch(/^\d+$/);
        expect(answer.ms).toBeLessThan(5_000);
        expect(JSON.parse(answer.text)).toMatchObject({ message: "服務暫時無法使用，請稍後再試。" });
      }
      // A session read that needs no counter may still succeed; it is never a 500, nor "signed out".
      for (const answer of answers) expect([200, 503], `${name}: ${answer.text.slice(0, 200)}`).toContain(answer.status);
      expect(site.output()).not.toMatch(/"status":500/);
      await proxy.restore();
      await recovered(site, account.email);
    });
  }
});

describe("Redis gone while a worker starts", () => {
  it("keeps the site serving (503) and starts the worker once Redis is back, instead of stopping every worker", async () => {
    const target = new URL(redisUrl);
    const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const prefix = `outages-start-${randomBytes(4).toString("hex")}:`;
    // startSite returns once the first worker listens; the second is still starting when Redis goes. Two workers
    // asked for by number: on SQLite `auto` is one process, which has no later worker to start.
    const site = await startSite({ ...defaults, WEB_CONCURRENCY: "2", REDIS_URL: `redis://127.0.0.1:${proxy.port}`, REDIS_KEY_PREFIX: prefix });
    try {
      await proxy.refuse();
      // Until the second worker has failed to start against the missing Redis (the primary says so, server.mjs) or
      // the site has given up, at most the 12 s this waited before.
      const failedOnce = /"msg":"worker could not start; trying again"|"msg":"stopping the workers"/;
      const deadline = Date.now() + 12_000;
      while (!failedOnce.test(site.output()) && site.child.exitCode === null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(site.output()).not.toMatch(/"msg":"stopping the workers"/);
      expect(site.child.exitCode).toBeNull();
      const answer = await timed(postJson(site.baseURL, "/api/auth/sign-in/email", { email: "nobody@example.tw", password }));
      expect(answer.status).toBe(503);
      await proxy.restore();
      await allWorkersUp(site, 2);
      expect((site.output().match(/網站已啟動/g) ?? []).length).toBeGreaterThanOrEqual(2);
      await until(async () => (await fetch(`${site.baseURL}/readyz`)).status === 200, 20_000);
    } finally {
      await site.stop();
      await proxy.close();
    }
  });
});

describe.skipIf(!inject("postgresUrl"))("PostgreSQL gone or slow", () => {
  const database = `outages_${randomBytes(5).toString("hex")}`;
  const url = new URL(postgresUrl);
  const admin = new pg.Pool({ connectionString: postgresUrl, max: 1 });
  let proxy: FaultProxy;
  let site: SiteProcess;
  let account: { email: string; cookie: string };

  beforeAll(async () => {
    await admin.query(`create database ${database}`);
    proxy = await startFaultProxy({ host: "127.0.0.1", port: Number(url.port || 5432) });
    site = await startSite({ ...defaults, DATABASE_URL: `postgres://${url.username}@127.0.0.1:${proxy.port}/${database}` });
    await allWorkersUp(site, autoWorkers.postgres);
    account = await parent(site, `postgres://${url.username}@${url.host}/${database}`);
  });
  afterAll(async () => {
    await site?.stop();
    await proxy?.close();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  });

  it("a session that cannot be read is a 503, never signed out: /account, /account/data.json, get-session", async () => {
    const account_ = await page(site, "/account", account.cookie);
    expect(account_.status).toBe(200);
    expect(account_.text).toContain(account.email);
    await proxy.refuse();
    const answers = { page: [] as Answer[], download: [] as Answer[], session: [] as Answer[] };
    for (let index = 0; index < 4; index += 1) {
      answers.page.push(await page(site, "/account", account.cookie));
      answers.download.push(await page(site, "/account/data.json", account.cookie));
      answers.session.push(await session(site, account.cookie));
    }
    for (const [name, list] of Object.entries(answers)) {
      expect(byStatus(list), name).toEqual({ 503: list.length });
      for (const answer of list) {
        expect(answer.retryAfter, name).toMatch(/^\d+$/);
        expect(answer.ms, name).toBeLessThan(5_000);
      }
    }
    await proxy.restore();
    await until(async () => (await page(site, "/account", account.cookie)).status === 200, 20_000);
  });

  it("/readyz reports the disk as it is, not full, while DATA_DIR does not exist yet", async () => {
    const dataDir = path.join(os.tmpdir(), `site-missing-${randomBytes(4).toString("hex")}`);
    const fresh = await startSite({ ...defaults, DATABASE_URL: `postgres://${url.username}@${url.host}/${database}` }, { dataDir });
    try {
      const ready = await fetch(`${fresh.baseURL}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ ok: true, disk: "ok" });
    } finally {
      await fresh.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("1 s per chunk: /account and a sign-in meet the 5 s deadline (503), not slow successes", async () => {
    // Each round trip takes 2 s: /account's three (the session, its ways in, its passkeys) and a sign-in's dozen
    // cannot end within the deadline.
    proxy.slow(1_000);
    const answers: Answer[] = [];
    for (let index = 0; index < 3; index += 1) answers.push(await page(site, "/account", account.cookie), await signIn(site, account.email));
    await proxy.restore();
    // No answer was a late success; each ended near the deadline (wide margin: the machine is shared).
    for (const answer of answers) {
      expect(answer.status, answer.text.slice(0, 200)).toBe(503);
      expect(answer.retryAfter).toMatch(/^\d+$/);
      expect(answer.ms).toBeGreaterThanOrEqual(4_500);
      expect(answer.ms).toBeLessThan(7_500);
    }
    await until(async () => (await signIn(site, account.email)).status === 200, 30_000);
    expect((await page(site, "/account", account.cookie)).status).toBe(200);
  });
});
