import { randomBytes } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startFaultProxy, type FaultProxy } from "~tests/helpers/fault-proxy";
import { siteUrl, startSite, type SiteProcess } from "./site-process";
import { appClient, refreshAt, send, signInApp, userinfoStatus, type Answer } from "./app-sign-in-client";

/**
 * The provider's endpoints when PostgreSQL is away (through the fault proxy), and while the instance shuts down:
 * token, userinfo and revocation answer 503 with Retry-After (never 500 server_error), the app keeps its tokens,
 * the request log records the real status of every provider answer, and answers given after SIGTERM carry
 * `Connection: close` without a second answer being written.
 */
const postgresUrl = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
// The production deadline (the fault tests' sites default to 30 s for a loaded machine).
const env = { OIDC_CLIENTS: JSON.stringify([appClient]), REQUEST_DEADLINE_MS: "5000", RATE_LIMIT_SIGN_UP_PER_IP: "100000/60", RATE_LIMIT_AUTH_PER_IP: "100000/60" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The request log's lines for `path` written after `from` characters of the output. */
const logLines = (site: SiteProcess, from: number, path: string) =>
  site
    .output()
    .slice(from)
    .split("\n")
    .filter((line) => line.includes(`"path":"${path}"`))
    .map((line) => JSON.parse(line) as { status?: number; msg: string; err?: { message?: string } });

describe.skipIf(!inject("postgresUrl"))("the app's sign-in while PostgreSQL is away", () => {
  const database = `oidc_outage_${randomBytes(5).toString("hex")}`;
  const url = new URL(postgresUrl);
  const admin = new pg.Pool({ connectionString: postgresUrl, max: 1 });
  let proxy: FaultProxy;
  let site: SiteProcess;

  beforeAll(async () => {
    await admin.query(`create database ${database}`);
    proxy = await startFaultProxy({ host: "127.0.0.1", port: Number(url.port || 5432) });
    site = await startSite({ ...env, DATABASE_URL: `postgres://${url.username}@127.0.0.1:${proxy.port}/${database}` });
  }, 90_000);
  afterAll(async () => {
    await site?.stop("SIGKILL");
    await proxy?.close();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  });

  it("token, userinfo and revocation answer 503 with Retry-After, logged as 503; the tokens work again afterwards", async () => {
    const { tokens } = await signInApp(site.baseURL, { site: siteUrl });
    // The code exchange's log line is written just after its answer went out.
    await sleep(300);
    await proxy.refuse();
    const requests: [string, string, () => Promise<Answer>][] = [
      ["refresh", "/oidc/token", () => send(`${site.baseURL}/oidc/token`, { form: { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: "app" } })],
      ["userinfo", "/oidc/me", () => send(`${site.baseURL}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })],
      ["revocation", "/oidc/token/revocation", () => send(`${site.baseURL}/oidc/token/revocation`, { form: { token: tokens.refresh_token, client_id: "app" } })],
    ];
    for (const [name, path, request] of requests) {
      const from = site.output().length;
      const answer = await request();
      expect(answer.status, name).toBe(503);
      expect(answer.headers["retry-after"], name).toBe("5");
      expect(JSON.parse(answer.text), name).toMatchObject({ error: "temporarily_unavailable" });
      await sleep(100);
      const lines = logLines(site, from, path);
      expect(lines.map((line) => [line.status, line.msg]), name).toEqual([[503, "dependency unavailable"]]);
    }
    await proxy.restore();

    // Nothing was lost: the same refresh token works once the database is back, and its answer is logged as 200.
    let refreshed = await refreshAt(site.baseURL, tokens.refresh_token);
    for (let attempt = 0; attempt < 30 && refreshed.status === 503; attempt += 1) {
      await sleep(500);
      refreshed = await refreshAt(site.baseURL, tokens.refresh_token);
    }
    expect(refreshed.status).toBe(200);
    expect(await userinfoStatus(site.baseURL, refreshed.body.access_token)).toBe(200);

    // A client's mistake is a 400 in the log too (it was logged as 200).
    await sleep(300);
    const from = site.output().length;
    const refused = await refreshAt(site.baseURL, "no-such-refresh-token");
    expect([refused.status, refused.body.error]).toEqual([400, "invalid_grant"]);
    await sleep(100);
    expect(logLines(site, from, "/oidc/token").map((line) => line.status)).toEqual([400]);
  }, 120_000);

  it("with PostgreSQL answering slowly, a refresh and userinfo answer 503 with Retry-After at the 5 s deadline, not a late 200; the refresh token works afterwards", async () => {
    const { tokens } = await signInApp(site.baseURL, { site: siteUrl });
    await sleep(300);
    // Every chunk either way held 1 s: a refresh's statements would take well over 8 s.
    proxy.slow(1_000);
    const timed = async (request: () => Promise<Answer>) => {
      const started = Date.now();
      const answer = await request();
      return { ...answer, ms: Date.now() - started };
    };
    const from = site.output().length;
    const answers = [
      await timed(() => send(`${site.baseURL}/oidc/token`, { form: { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: "app" } })),
      await timed(() => send(`${site.baseURL}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })),
    ];
    await proxy.restore();
    for (const answer of answers) {
      expect(answer.status, `${answer.ms} ms: ${answer.text.slice(0, 100)}`).toBe(503);
      expect(answer.headers["retry-after"]).toBe("5");
      expect(JSON.parse(answer.text)).toMatchObject({ error: "temporarily_unavailable" });
      // Near the deadline (a wide margin: the machine is shared), never the 8 s of the slow statements.
      expect(answer.ms).toBeGreaterThanOrEqual(4_500);
      expect(answer.ms).toBeLessThan(7_500);
    }
    await sleep(200);
    expect(logLines(site, from, "/oidc/token").map((line) => [line.status, line.msg])).toEqual([[503, "dependency unavailable"]]);

    // The abandoned rotation wrote nothing the app cannot use: the same refresh token works (or gets its kept answer).
    let refreshed = await refreshAt(site.baseURL, tokens.refresh_token);
    for (let attempt = 0; attempt < 30 && refreshed.status === 503; attempt += 1) {
      await sleep(500);
      refreshed = await refreshAt(site.baseURL, tokens.refresh_token);
    }
    expect(refreshed.status).toBe(200);
    expect(await userinfoStatus(site.baseURL, refreshed.body.access_token)).toBe(200);
  }, 90_000);

  it("after SIGTERM, provider answers on kept-alive connections carry Connection: close and exactly one answer is written", async () => {
    const { tokens } = await signInApp(site.baseURL, { site: siteUrl });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
    const ask = (path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) =>
      new Promise<{ status?: number; connection?: string; error?: string }>((resolve) => {
        const outgoing = http.request(`${site.baseURL}${path}`, { agent, method: init.method ?? "GET", headers: init.headers }, (response) => {
          response.resume();
          response.on("end", () => resolve({ status: response.statusCode, connection: response.headers.connection }));
        });
        outgoing.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
        outgoing.end(init.body);
      });
    const appTraffic = () =>
      Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          index % 2
            ? ask("/oidc/me", { headers: { authorization: `Bearer ${tokens.access_token}` } })
            : ask("/.well-known/openid-configuration"),
        ),
      );
    try {
      expect((await appTraffic()).map((answer) => answer.status)).toEqual(Array(6).fill(200));
      site.child.kill("SIGTERM");
      while (!site.output().includes('"msg":"shutting down"')) await sleep(5);
      const answers = await appTraffic();
      expect(answers.filter((answer) => answer.error)).toEqual([]);
      expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
      expect(answers.map((answer) => answer.connection)).toEqual(Array(6).fill("close"));
      const stopped = await site.stop();
      expect(stopped.code).toBe(0);
      expect(site.output()).not.toContain("ERR_HTTP_HEADERS_SENT");
    } finally {
      agent.destroy();
    }
  }, 90_000);
});
