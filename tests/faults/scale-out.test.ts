import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

/**
 * The deploy recipe in miniature (deploy/start-cluster.sh): nginx with TLS on localhost in front of two
 * instances on PostgreSQL + Redis. A session made through one instance works on the other, a sign-out on one
 * ends it on both, and the lockout counts failures on both together.
 */
const postgresUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const ports = { tls: 4243, a: 4241, b: 4242 };
const origin = `https://localhost:${ports.tls}`;
const password = "cluster-test-password-1";

interface Answer {
  status: number;
  text: string;
  cookies: string[];
}

function request(url: string, options: { method?: string; body?: unknown; cookie?: string; ip?: string; ca?: Buffer } = {}): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { origin, "x-forwarded-for": options.ip ?? "203.0.113.10" };
  if (body) headers["content-type"] = "application/json";
  if (options.cookie) headers.cookie = options.cookie;
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(target, { method: options.method ?? (body ? "POST" : "GET"), headers, ca: options.ca }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          text: Buffer.concat(chunks).toString("utf8"),
          cookies: (response.headers["set-cookie"] ?? []).map((line) => line.split(";")[0] ?? ""),
        }),
      );
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

// nginx comes with the test command (scripts/test.sh installs nginx-light); PostgreSQL is required in CI.
describe.skipIf(!inject("postgresUrl"))("two instances behind nginx", () => {
  const database = `cluster_${randomBytes(5).toString("hex")}`;
  const prefix = `cluster-${randomBytes(4).toString("hex")}:`;
  const run = fs.mkdtempSync(path.join(os.tmpdir(), "site-cluster-"));
  const admin = new pg.Pool({ connectionString: postgresUrl, max: 1 });
  let cluster: ReturnType<typeof spawn> | undefined;
  let ca: Buffer;

  beforeAll(async () => {
    await admin.query(`create database ${database}`);
    const url = new URL(postgresUrl);
    url.pathname = `/${database}`;
    cluster = spawn("bash", ["deploy/start-cluster.sh", run], {
      env: {
        ...process.env,
        DATABASE_URL: url.toString(),
        REDIS_URL: redisUrl,
        REDIS_KEY_PREFIX: prefix,
        BUILD_DIR: process.env.BUILD_DIR || "build-test",
        TLS_PORT: String(ports.tls),
        PORT_A: String(ports.a),
        PORT_B: String(ports.b),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    cluster.stdout?.on("data", (chunk) => (output += chunk));
    cluster.stderr?.on("data", (chunk) => (output += chunk));
    const deadline = Date.now() + 90_000;
    while (!output.includes("cluster ready")) {
      if (Date.now() > deadline || cluster.exitCode !== null) throw new Error(`cluster did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    ca = fs.readFileSync(path.join(run, "cert.pem"));
  }, 120_000);

  afterAll(async () => {
    if (cluster && cluster.exitCode === null) {
      cluster.kill("SIGTERM");
      await new Promise((resolve) => cluster?.once("exit", resolve));
    }
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    fs.rmSync(run, { recursive: true, force: true });
  });

  const instance = (name: "a" | "b", pathname: string) => `http://127.0.0.1:${ports[name]}${pathname}`;

  it("answers over TLS and shares sessions and sign-outs between the instances", async () => {
    expect((await request(`${origin}/readyz`, { ca })).status).toBe(200);
    const email = `cluster-${randomUUID().slice(0, 8)}@example.tw`;
    const signUp = await request(`${origin}/api/auth/sign-up/email`, { body: { email, password, name: "家長" }, ca });
    expect(signUp.status).toBe(200);
    const cookie = signUp.cookies.join("; ");
    expect(cookie).toContain("session_token");

    for (const name of ["a", "b"] as const) {
      const session = await request(instance(name, "/api/auth/get-session"), { cookie });
      expect(JSON.parse(session.text)).toMatchObject({ user: { email } });
    }
    expect((await request(instance("a", "/api/auth/sign-out"), { body: {}, cookie })).status).toBe(200);
    const after = await request(instance("b", "/api/auth/get-session"), { cookie });
    expect(JSON.parse(after.text)).toBeNull();
  });

  it("counts one account's failed sign-ins on both instances together", async () => {
    const email = `locked-${randomUUID().slice(0, 8)}@example.tw`;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const answer = await request(instance(attempt % 2 ? "a" : "b", "/api/auth/sign-in/email"), {
        body: { email, password: "wrong-password" },
        ip: `203.0.113.${attempt + 20}`,
      });
      expect(answer.status).toBe(401);
    }
    for (const name of ["a", "b"] as const) {
      const locked = await request(instance(name, "/api/auth/sign-in/email"), { body: { email, password: "wrong-password" }, ip: "203.0.113.99" });
      expect(locked.status).toBe(429);
    }
  });
});
