import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePorts, startSite, startTlsProxy, statusAndHeaders, type SiteProcess, type TlsProxy } from "./site-process";

/**
 * The MDN HTTP Observatory's grade of the built site in production mode behind nginx with TLS (the deploy
 * recipe's proxy, plain http redirecting to https), and HSTS on every https answer, errors included (ASVS 3.4.1).
 */
interface ObservatoryResult {
  path: string;
  status: number;
  score: number;
  grade: string;
  tests: Record<string, { pass: boolean; result: string; modifier: number }>;
}

const ONE_YEAR = 31_536_000;
// A prerendered page, a prerendered sign-in screen, two server-rendered pages.
const scanned = ["/", "/login", "/account-deletion", "/wishing-well"];

describe("behind nginx with TLS", () => {
  let site: SiteProcess;
  let proxy: TlsProxy;
  let httpPort: number;
  let tlsPort: number;

  beforeAll(async () => {
    [httpPort, tlsPort] = (await freePorts(2)) as [number, number];
    site = await startSite({ SITE_URL: `https://localhost:${tlsPort}`, TRUSTED_PROXIES: "127.0.0.1", LOG_LEVEL: "warn" });
    proxy = await startTlsProxy([Number(new URL(site.baseURL).port)], { tls: tlsPort, http: httpPort });
  });

  afterAll(async () => {
    await proxy?.stop();
    await site?.stop();
  });

  it(`grades ${scanned.join(", ")} A+ (at least 110) with every Observatory test passing`, async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["tests/faults/observatory-scan.mjs", "localhost", String(httpPort), String(tlsPort), ...scanned],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: proxy.caFile }, timeout: 60_000 },
    );
    const results = JSON.parse(stdout) as ObservatoryResult[];
    for (const result of results) {
      const lines = Object.entries(result.tests).map(([name, test]) => `  ${test.pass ? "pass" : "FAIL"} ${name}: ${test.result} (${test.modifier >= 0 ? "+" : ""}${test.modifier})`);
      console.log(`Observatory ${result.path}: ${result.score} (${result.grade})\n${lines.join("\n")}`);
    }
    expect(results.map((result) => result.path)).toEqual(scanned);
    for (const result of results) {
      expect(result.status, result.path).toBe(200);
      expect(Object.keys(result.tests), result.path).toHaveLength(10);
      expect(Object.entries(result.tests).filter(([, test]) => !test.pass), result.path).toEqual([]);
      expect(result.score, result.path).toBeGreaterThanOrEqual(110);
      expect(result.grade, result.path).toBe("A+");
    }
  });

  it("sends HSTS of at least a year on every https answer: pages, files, API, errors", async () => {
    const answers: [method: string, path: string, status: number][] = [
      ["GET", "/", 200],
      ["GET", "/login", 200],
      ["GET", "/wishing-well", 200],
      ["HEAD", "/about", 200],
      ["GET", "/favicon.svg", 200],
      ["GET", "/api/auth/get-session", 200],
      ["GET", "/no-such-page", 404],
      ["GET", "/assets/missing.js", 404],
      ["GET", "/api/auth/no-such-endpoint", 404],
      ["POST", "/api/csp-report", 400],
      ["POST", "/about", 405],
      // nginx answers TRACE itself; the site does too when reached directly.
      ["TRACE", "/", 405],
    ];
    // The site's own header (straight from the instance), and exactly one header through the proxy.
    for (const origin of [site.baseURL, proxy.origin]) {
      for (const [method, path, status] of answers) {
        const answer = await statusAndHeaders(`${origin}${path}`, { method, ca: proxy.ca });
        const label = `${method} ${origin}${path}`;
        expect(answer.status, label).toBe(status);
        const hsts = String(answer.headers["strict-transport-security"] ?? "");
        expect(hsts, label).toMatch(/^max-age=\d+; includeSubDomains$/);
        expect(Number(/max-age=(\d+)/.exec(hsts)?.[1]), label).toBeGreaterThanOrEqual(ONE_YEAR);
      }
    }
  });

  it("sends plain http to the same address over https", async () => {
    const answer = await statusAndHeaders(`http://localhost:${httpPort}/login?from=http`);
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe(`${proxy.origin}/login?from=http`);
  });
});
