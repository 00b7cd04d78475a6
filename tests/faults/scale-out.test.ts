import { randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { IncomingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startCluster, type Cluster } from "~tests/helpers/cluster";

/**
 * The deploy recipe in miniature: nginx with TLS on localhost in front of two instances on PostgreSQL + Redis.
 * A session made through one instance works on the other, a sign-out on one ends it on both, and the lockout
 * counts failures on both together.
 */
const password = "cluster-test-password-1";
/** nginx's address (the instances' SITE_URL), once the cluster runs. */
let origin = "";

interface Answer {
  status: number;
  text: string;
  cookies: string[];
  headers: IncomingHttpHeaders;
}

interface RequestOptions {
  method?: string;
  body?: unknown;
  cookie?: string;
  ip?: string;
  ca?: Buffer;
  headers?: Record<string, string>;
}

function request(url: string, options: RequestOptions = {}): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { origin, "x-forwarded-for": options.ip ?? "203.0.113.10", ...options.headers };
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
          headers: response.headers,
        }),
      );
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

// nginx comes with the test command (scripts/test.sh installs nginx-light); PostgreSQL is required in CI.
describe.skipIf(!inject("postgresUrl"))("two instances behind nginx", () => {
  let cluster: Cluster | undefined;
  let ca: Buffer;

  beforeAll(async () => {
    cluster = await startCluster({ label: "cluster" });
    ({ origin, ca } = cluster);
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  const instance = (name: "a" | "b", pathname: string) => `${cluster!.instances[name === "a" ? 0 : 1]!.baseURL}${pathname}`;

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

  it("answers a visitor's prerendered page and the build's files itself, a signed-in parent's page and the API from an instance", async () => {
    // Requests an instance answered, by its request log's lines (a kept answer never reaches one), once the lines
    // written so far have arrived: the count stays the same for 300 ms.
    const linesFor = (path: string) =>
      cluster!.instances.reduce((count, site) => count + site.output().split("\n").filter((line) => line.includes(`"path":"${path}"`) && line.includes('"method":"GET"')).length, 0);
    const reached = async (path: string) => {
      for (let count = linesFor(path); ; ) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        if (linesFor(path) === count) return count;
        count = linesFor(path);
      }
    };
    // The site keeps a page for 5 s: at most one instance request per 5 s begun.
    const keptFor = async (path: string, options: RequestOptions, times: number) => {
      const started = Date.now();
      const answers: Answer[] = [];
      for (let index = 0; index < times; index += 1) answers.push(await request(`${origin}${path}`, { ca, ...options }));
      return { answers, windows: Math.ceil((Date.now() - started + 1) / 5_000) };
    };

    const visitor = await keptFor("/features", {}, 8);
    expect(await reached("/features")).toBeGreaterThanOrEqual(1);
    expect(await reached("/features")).toBeLessThanOrEqual(visitor.windows);
    const [first] = visitor.answers;
    for (const answer of visitor.answers) {
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(first!.text);
      expect(answer.headers.etag).toBe(first!.headers.etag);
      // The instance's headers, once each (HSTS is not doubled by nginx's own), without the instruction to nginx.
      expect(answer.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
      expect(answer.headers["content-security-policy"]).toBe(first!.headers["content-security-policy"]);
      expect(answer.headers["x-accel-expires"]).toBeUndefined();
    }
    // Each answer has its own request id, a kept one's too.
    expect(new Set(visitor.answers.map((answer) => answer.headers["x-request-id"])).size).toBe(visitor.answers.length);
    // nginx answers a revalidation from what it keeps.
    const revalidated = await request(`${origin}/features`, { ca, headers: { "if-none-match": String(first!.headers.etag) } });
    expect(revalidated.status).toBe(304);

    // A build file the page names.
    const asset = /\/assets\/[\w.-]+\.js/.exec(first!.text)![0];
    const assets = await keptFor(asset, { headers: { "accept-encoding": "br" } }, 4);
    expect(assets.answers.map((answer) => [answer.status, answer.headers.etag])).toEqual(Array(4).fill([200, assets.answers[0]!.headers.etag]));
    expect(await reached(asset)).toBe(1);

    // A signed-in parent's page names them: every request goes to an instance, and nothing of it is kept.
    const name = `快取測試${randomUUID().slice(0, 4)}`;
    const signUp = await request(`${origin}/api/auth/sign-up/email`, { body: { email: `kept-${randomUUID().slice(0, 8)}@example.tw`, password, name }, ca });
    const cookie = signUp.cookies.join("; ");
    const before = await reached("/features");
    for (let index = 0; index < 3; index += 1) {
      const page = await request(`${origin}/features`, { ca, cookie });
      expect(page.text).toContain(name);
      expect(page.headers["cache-control"]).toBe("private, no-cache");
    }
    expect(await reached("/features")).toBe(before + 3);
    expect((await request(`${origin}/features`, { ca })).text).not.toContain(name);

    // The API is never kept, a visitor's request included.
    const sessions = await reached("/api/auth/get-session");
    for (let index = 0; index < 3; index += 1) await request(`${origin}/api/auth/get-session`, { ca });
    expect(await reached("/api/auth/get-session")).toBe(sessions + 3);
  });
});
