import { randomUUID } from "node:crypto";
import http from "node:http";
import os from "node:os";
import { describe, expect, inject, it } from "vitest";
import { startSharedInstances } from "~tests/helpers/cluster";
import { siteUrl, startSite } from "./site-process";

/**
 * WEB_CONCURRENCY=2 on the embedded SQLite (decision 703): two worker processes share the port and the database
 * file; concurrent sign-ups all succeed (transactions take the write lock first), both workers answer, a write
 * through one drops the other's cached pages, and SIGTERM stops the primary and both workers with exit code 0.
 */
const workers = { WEB_CONCURRENCY: "2", PAGE_CACHE_SECONDS: "600", RATE_LIMIT_SIGN_UP_PER_IP: "100000/60", RATE_LIMIT_AUTH_PER_IP: "100000/60", RATE_LIMIT_GUEST_PER_IP: "100000/60" };

/** A request on a connection of its own (the primary hands each new connection to the next worker). */
function once(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method: options.method ?? "GET", headers: { connection: "close", ...options.headers }, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), headers: response.headers }));
    });
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}

describe("worker processes", () => {
  it("serves from two workers on one SQLite file, keeps their caches in step, and stops both on SIGTERM", async () => {
    const site = await startSite(workers);
    try {
      // Both workers are up once each has written its start-up line.
      const deadline = Date.now() + 60_000;
      while ((site.output().match(/網站已啟動/g) ?? []).length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      const pids = () => new Set([...site.output().matchAll(/"pid":(\d+),"requestId"/g)].map((match) => match[1]));

      const signUps = await Promise.all(
        Array.from({ length: 40 }, () =>
          once(`${site.baseURL}/api/auth/sign-up/email`, {
            method: "POST",
            headers: { origin: siteUrl, "content-type": "application/json" },
            body: JSON.stringify({ email: `worker-${randomUUID().slice(0, 8)}@example.tw`, password: "worker-test-password-1", name: "家長" }),
          }),
        ),
      );
      expect(signUps.map((answer) => answer.status)).toEqual(Array(40).fill(200));
      // Both workers answer. A burst may all land on one of them (the primary hands each connection to whichever
      // worker is free first, and on a busy machine one can take all 40), so a few more requests, one at a time.
      for (let tries = 0; pids().size < 2 && tries < 50; tries += 1) await once(`${site.baseURL}/readyz`);
      expect(pids().size).toBe(2);

      // Fill both workers' caches, then write through one: no worker serves the old board afterwards.
      for (let index = 0; index < 6; index += 1) await once(`${site.baseURL}/wishing-well`);
      const guest = await once(`${site.baseURL}/api/auth/sign-in/anonymous`, { method: "POST", headers: { origin: siteUrl, "content-type": "application/json" }, body: "{}" });
      const cookie = (guest.headers["set-cookie"] ?? []).map((line) => line.split(";")[0]).join("; ");
      const title = `工作行程 ${randomUUID().slice(0, 8)}`;
      const body = new URLSearchParams({ intent: "create", title, body: "" }).toString();
      const made = await once(`${site.baseURL}/wishing-well`, {
        method: "POST",
        headers: { host: new URL(siteUrl).host, origin: siteUrl, cookie, "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)) },
        body,
      });
      expect([302, 303]).toContain(made.status);
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (let index = 0; index < 6; index += 1) expect((await once(`${site.baseURL}/wishing-well`)).text).toContain(title);

      const stopped = await site.stop();
      expect(stopped.code).toBe(0);
      expect(site.output()).toContain("stopping the workers");
      expect(site.output().match(/"msg":"stopped in \d+ ms"/g)?.length).toBe(2);
    } finally {
      await site.stop("SIGKILL");
    }
  });

  // Issue 38: it was refused on SQLite (the primary read it as auto, the one process as a number) and taken as
  // auto on PostgreSQL. Empty is unset, so auto, on both (docs/configuration.md).
  it("reads WEB_CONCURRENCY= (empty) as auto on SQLite: one process", async () => {
    const site = await startSite({ WEB_CONCURRENCY: "" });
    try {
      expect((await fetch(`${site.baseURL}/readyz`)).status).toBe(200);
      expect(site.output().match(/網站已啟動/g)).toHaveLength(1);
      expect(site.output()).not.toContain("個工作行程");
    } finally {
      expect((await site.stop()).code).toBe(0);
    }
  });

  it.skipIf(!inject("postgresUrl"))("reads WEB_CONCURRENCY= (empty) as auto on PostgreSQL: one worker per core", async () => {
    const shared = await startSharedInstances({ label: "empty_concurrency", count: 1, env: { WEB_CONCURRENCY: "" } });
    try {
      const [site] = shared.instances;
      expect((await fetch(`${site!.baseURL}/readyz`)).status).toBe(200);
      expect(site!.output()).toContain(`"workers":${os.availableParallelism()}`);
    } finally {
      await shared.stop();
    }
  });
});
