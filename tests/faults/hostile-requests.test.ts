import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeMap } from "~/lib/route-map";
import { exampleAddress } from "~tests/helpers/route-addresses.mjs";
import { siteUrl, startSite, type SiteProcess } from "./site-process";

/**
 * Hostile requests against the built site, from loopback only (a remote client is simulated with a forwarded
 * address through a trusted proxy): the development tools stay off the network, every error answer carries the
 * security headers, and the sign-in form's refusals say when to try again.
 */

/** One raw request with any Host header (fetch sets its own): status, headers and body. */
function raw(baseURL: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const { port } = new URL(baseURL);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    // A fresh connection each time: an answer sent before the whole body arrived (413) closes its connection.
    const request = http.request({ host: "127.0.0.1", port, path, method: options.method ?? "GET", headers: options.headers, timeout: 10_000, agent: false }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on("timeout", () => request.destroy(new Error(`${path} timed out`)));
    request.on("error", reject);
    request.end(options.body);
  });
}

const remote = { "x-forwarded-for": "203.0.113.7" };
// The route map's development tools, the same in another case (React Router matches any case), and the host's
// identity provider.
const routeMapDevTools = routeMap.filter((entry) => entry.kind === "dev-tool").map((entry) => exampleAddress(entry.path));
const devToolPaths = [...routeMapDevTools, ...routeMapDevTools.map((path) => path.toUpperCase()), "/dev-oidc/.well-known/openid-configuration"];

describe("the development tools behind a trusted proxy", () => {
  let site: SiteProcess;
  beforeAll(async () => {
    site = await startSite({ TRUSTED_PROXIES: "127.0.0.1" });
  });
  afterAll(async () => {
    await site.stop();
  });

  it.each(devToolPaths)("serves %s to this machine and a 404 to a forwarded remote client", async (path) => {
    expect((await raw(site.baseURL, path)).status).toBe(200);
    const refused = await raw(site.baseURL, path, { headers: remote });
    expect(refused.status).toBe(404);
    expect(refused.body).not.toMatch(/verify-email|issuer/);
    // A chain that ends on this machine but started elsewhere is still remote.
    expect((await raw(site.baseURL, path, { headers: { "x-forwarded-for": "203.0.113.7, 127.0.0.1" } })).status).toBe(404);
  });
});

describe("the development tools behind a proxy the site was not told about", () => {
  it("refuses a forwarded remote client although every peer is loopback", async () => {
    const site = await startSite();
    try {
      for (const path of devToolPaths) {
        expect((await raw(site.baseURL, path, { headers: remote })).status, path).toBe(404);
        expect((await raw(site.baseURL, path, { headers: { forwarded: "for=203.0.113.7;proto=https" } })).status, path).toBe(404);
        expect((await raw(site.baseURL, path)).status, path).toBe(200);
      }
    } finally {
      await site.stop();
    }
  });

  it("refuses to start with the development tools on a network address", async () => {
    const site = await startSite({ HOST: "0.0.0.0" }, { expectFailure: true });
    const code = await new Promise<number | null>((resolve) => site.child.once("exit", resolve));
    expect(code).toBe(1);
    expect(site.output()).toMatch(/HOST:.*127\.0\.0\.1/);
  });
});

describe("error answers and refusals", () => {
  let site: SiteProcess;
  beforeAll(async () => {
    site = await startSite({ TRUSTED_PROXIES: "127.0.0.1", RATE_LIMIT_SIGN_IN_PER_IP: "2/60" });
  });
  afterAll(async () => {
    await site.stop();
  });

  it.each([
    ["a malformed Host header", "/", { headers: { host: "bad host!" } }, 400],
    ["an unknown method", "/", { method: "PROPFIND" }, 501],
    ["TRACE", "/", { method: "TRACE" }, 405],
    ["a body over the limit", "/api/analytics", { method: "POST", headers: { "content-type": "application/json" }, body: "x".repeat(200_000) }, 413],
    ["a missing page", "/no-such-page", {}, 404],
  ] as const)("answers %s with nosniff and a CSP", async (_name, path, options, status) => {
    const logged = site.output().length;
    const answer = await raw(site.baseURL, path, options);
    expect(answer.status).toBe(status);
    // A client's mistake is never logged as the server's error (PROPFIND's 501 included), and every line is JSON.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const lines = site.output().slice(logged).split("\n").filter(Boolean);
    for (const line of lines) expect((JSON.parse(line) as { level: number }).level, line).toBeLessThan(50);
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(answer.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  });

  // Before, the sign-in API printed "# SERVER_ERROR:" and logged a 503 "dependency unavailable" (the socket's
  // ECONNRESET), and the others a 500 "5xx without a recorded error".
  it.each([
    ["/api/auth/sign-in/email", "application/json"],
    ["/api/analytics", "application/json"],
    ["/login", "application/x-www-form-urlencoded"],
  ])("logs a client that hangs up mid-body on %s as an aborted request: no 5xx, no dependency blamed, every line JSON", async (path, type) => {
    const logged = site.output().length;
    const socket = net.connect(Number(new URL(site.baseURL).port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const host = new URL(siteUrl).host;
    // A client address of its own, so no earlier test's rate limit answers before the body is read.
    const client = `192.0.2.${path.length}`;
    socket.write(`POST ${path} HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${siteUrl}\r\nX-Forwarded-For: ${client}\r\nContent-Type: ${type}\r\nContent-Length: 8000\r\n\r\n{"events":[`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.destroy();
    // The request's line is written once the server has given up on the body.
    for (let waited = 0; waited < 5_000 && !site.output().slice(logged).includes(`"path":"${path}"`); waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = site.output().slice(logged).split("\n").filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    const entries = lines.map((line) => JSON.parse(line) as { level: number; msg: string; status?: number; path?: string });
    expect(entries.filter((entry) => entry.path === path).map((entry) => entry.msg)).toEqual(["request aborted by the client"]);
    for (const entry of entries) {
      expect(entry.level, JSON.stringify(entry)).toBeLessThan(40);
      expect(entry.status ?? 0, JSON.stringify(entry)).toBeLessThan(500);
    }
  });

  it("takes a long dev-blog post's body (about 7,000 Chinese characters) and refuses only what no post can be", async () => {
    const form = (characters: number) => new URLSearchParams({ intent: "draft", title: "長文", summary: "s", body: "勇".repeat(characters), tags: "", cover: "" }).toString();
    const headers = { "content-type": "application/x-www-form-urlencoded", origin: siteUrl, host: new URL(siteUrl).host };
    const long = await raw(site.baseURL, "/dev-blog/create", { method: "POST", headers, body: form(7_000) });
    expect(long.status).not.toBe(413);
    expect(long.status).toBeLessThan(500);
    const tooLong = await raw(site.baseURL, "/dev-blog/create", { method: "POST", headers, body: form(200_000) });
    expect(tooLong.status).toBe(413);
    expect(JSON.parse(tooLong.body)).toMatchObject({ code: "payload-too-large" });
  });

  it("answers the sign-in form's 429 with Retry-After, as the JSON API does", async () => {
    const form = new URLSearchParams({ email: "nobody@example.tw", password: "wrong-password-1" }).toString();
    // A browser's form post: its Origin names the site, and so does its Host (React Router checks the two agree).
    const headers = { "content-type": "application/x-www-form-urlencoded", origin: siteUrl, host: new URL(siteUrl).host, "x-forwarded-for": "198.51.100.9" };
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof raw>> | undefined;
    for (let attempt = 0; attempt < 4 && !refused; attempt += 1) {
      const answer = await raw(site.baseURL, "/login", { method: "POST", headers, body: form });
      statuses.push(answer.status);
      if (answer.status === 429) refused = answer;
    }
    expect(statuses.slice(0, 2)).toEqual([401, 401]);
    expect(refused?.status).toBe(429);
    expect(Number(refused?.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused?.body).toContain("嘗試次數過多");
  });
});
