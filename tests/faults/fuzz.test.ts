import http from "node:http";
import { describe, expect, it } from "vitest";
import { siteUrl, startSite } from "./site-process";

/**
 * 10,000 malformed requests over every endpoint, from thousands of client addresses: bad methods, paths,
 * bodies, hosts, cookies and types. Not one may answer 5xx or show a stack trace, and memory must stay flat.
 * The sequence is seeded, so a failure can be replayed.
 */
const TOTAL = 10_000;
const CONCURRENCY = 24;
const ADDRESSES = 3_000;

const pages = ["/", "/features", "/pricing", "/current-plan", "/wishing-well", "/faq", "/about", "/tutorial", "/learning-resources",
  "/learning-resources/x", "/blog", "/blog/x", "/dev-blog", "/dev-blog/create", "/dev-blog/x", "/dev-blog/x/edit", "/news", "/news/x",
  "/privacy", "/terms", "/ironman2025", "/task-scheduler", "/account-deletion", "/login", "/signup", "/email-verification",
  "/forgot-password", "/reset-password", "/verify-email", "/firebase-test", "/dev/mailbox", "/sitemap.xml", "/robots.txt",
  "/manifest.webmanifest", "/healthz", "/readyz", "/favicon.ico", "/assets/missing.js", "/no-such-page"];
const apis = ["/api/analytics", "/api/csp-report", "/api/dev/mailbox", "/dev-oidc/.well-known/openid-configuration", "/dev-oidc/auth", "/dev-oidc/token",
  ...["sign-in/email", "sign-up/email", "sign-out", "get-session", "me", "request-password-reset", "reset-password", "verify-email",
    "send-verification-email", "delete-user", "update-user", "sign-in/anonymous", "guest/upgrade", "sign-in/social", "ok",
    "callback/google", "oauth2/callback/dev", "oauth-popup/start", "change-password", "list-sessions", "no-such-endpoint"].map((p) => `/api/auth/${p}`)];
const endpoints = [...pages, ...apis];

const methods = ["GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "FOO"];
const bodies = [
  "",
  "{",
  "null",
  "[]",
  '{"email":1,"password":{}}',
  '{"email":"a@b","password":"x"}',
  '{"email":"' + "a".repeat(5000) + '@example.tw","password":"' + "p".repeat(5000) + '"}',
  '{"events":[{"name":"page_view","params":{"page_path":"x"}}]}',
  '{"events":' + JSON.stringify(Array.from({ length: 500 }, () => ({ name: "logo_click", params: {} }))) + "}",
  "email=a%40b&password=%zz",
  "\u0000\u0001\u0002",
  '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}',
  "x".repeat(70 * 1024),
];
const types = ["application/json", "application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "", "application/json; charset=utf-7"];
const suffixes = ["", "", "?token=%", "?callbackURL=//evil.example", "/%zz", "/..%2f..%2fetc%2fpasswd", "//", "?" + "q=".repeat(2000), "%00", "/\u00e9\u4e2d"];
const hosts = ["", "", "", "", "www.127.0.0.1", "a b", "[::1", "x".repeat(300), "localhost:99999", "evil.example", "localhost:4210"];
const cookies = ["", "", "better-auth.session_token=garbage", "better-auth.session_token=" + "A".repeat(4000), "a=b; c", "=;;="];

function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const stackTrace = /\n\s+at [^\n]+:\d+:\d+|node_modules|\bat (async )?[\w.<>]+ \(/;

describe("malformed requests", () => {
  it(`answers ${TOTAL} of them without a 5xx or a stack trace, in flat memory`, { timeout: 420_000 }, async () => {
    const site = await startSite({ TRUSTED_PROXIES: "127.0.0.1", LOG_LEVEL: "warn" });
    const { port } = new URL(site.baseURL);
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const next = random(20261126);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    // Resident memory every 500 requests; the garbage collector makes it swing, so trends are compared by median.
    const rssSamples: number[] = [];

    const one = () =>
      new Promise<void>((resolve) => {
        const method = pick(methods);
        const path = pick(endpoints) + pick(suffixes);
        const body = method === "GET" || method === "HEAD" ? "" : pick(bodies);
        const headers: Record<string, string> = {
          "x-forwarded-for": `198.${Math.floor(next() * 12)}.${Math.floor(next() * 250)}.${Math.floor(next() * ADDRESSES) % 250}`,
          origin: next() < 0.7 ? siteUrl : pick(["null", "https://evil.example", "x"]),
        };
        const host = pick(hosts);
        if (host) headers.host = host;
        const type = pick(types);
        if (type) headers["content-type"] = type;
        const cookie = pick(cookies);
        if (cookie) headers.cookie = cookie;
        if (next() < 0.1) headers.accept = "text/html";
        const request = http.request({ host: "127.0.0.1", port, method, path: encodeURI(path).replace(/%25/g, "%"), headers, agent }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            const status = response.statusCode ?? 0;
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            const text = Buffer.concat(chunks).toString("utf8");
            if (status >= 500) failures.push(`${status} ${method} ${path.slice(0, 120)} host=${host.slice(0, 40)}: ${text.slice(0, 200)}`);
            else if (stackTrace.test(text)) failures.push(`stack trace in ${status} ${method} ${path.slice(0, 120)}`);
            resolve();
          });
          response.on("error", () => resolve());
        });
        // Node's own parser refuses some of these (a bad Host, a 400 from the socket): that is an answer too.
        request.on("error", () => resolve());
        // No answer at all is a failure of its own: a hang.
        request.setTimeout(15_000, () => {
          failures.push(`no answer within 15 s: ${method} ${path.slice(0, 120)}`);
          request.destroy();
        });
        request.end(body);
      });

    const worker = async () => {
      while (sent < TOTAL) {
        sent += 1;
        await one();
        if (sent % 500 === 0) rssSamples.push(site.rssMb());
      }
    };
    try {
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      expect(failures.slice(0, 20)).toEqual([]);
      expect([...statuses.values()].reduce((sum, count) => sum + count, 0)).toBeGreaterThan(TOTAL * 0.95);
      // Thousands of new addresses, oversized bodies and bad input: memory does not climb with them. The median
      // of the second half stays within 64 MB of the first half's.
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
      const half = Math.floor(rssSamples.length / 2);
      expect(median(rssSamples.slice(half)) - median(rssSamples.slice(0, half))).toBeLessThan(64);
      expect(site.child.exitCode).toBeNull();
    } finally {
      agent.destroy();
      expect((await site.stop()).code).toBe(0);
    }
  });
});
