import { randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
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
});
