import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchServer, type LaunchedServer } from "~tests/helpers/launch-server.mjs";
import { e2ePort } from "./setup/server";

type Family = { name: string; type: string; metrics: { labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string }[] };

/**
 * /metrics as a default `npm start` serves it: two workers, the Prometheus text on METRICS_PORT (here with a bearer
 * token), summed over both workers, and never on the site's own port.
 */
describe("metrics", () => {
  let server: LaunchedServer;
  const metricsPort = e2ePort + 7;
  const token = "metrics-token-for-the-e2e-test";
  const scrape = (headers: Record<string, string> = { authorization: `Bearer ${token}` }) => fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers });

  beforeAll(async () => {
    server = await launchServer({
      port: e2ePort + 6,
      buildDir: process.env.BUILD_DIR || "build-test",
      env: { WEB_CONCURRENCY: "2", METRICS_PORT: String(metricsPort), METRICS_TOKEN: token },
      timeoutMs: 60_000,
    });
    const deadline = Date.now() + 60_000;
    while ((server.output().match(/網站已啟動/g) ?? []).length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("answers 404 for /metrics on the public port", async () => {
    const answer = await fetch(`${server.origin}/metrics`);
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toContain("site_http_requests_total");
  });

  it("serves both workers' metrics in the Prometheus text format, only with the token", async () => {
    expect((await scrape({})).status).toBe(401);
    expect((await scrape({ authorization: "Bearer wrong-token-of-the-same-len" })).status).toBe(401);
    // Fresh connections, so the cluster hands them to either worker.
    for (let n = 0; n < 20; n += 1) expect((await fetch(`${server.origin}/healthz`, { headers: { connection: "close" } })).status).toBe(200);
    await fetch(`${server.origin}/no-such-page-${Date.now()}`, { headers: { connection: "close" } });

    const answer = await scrape();
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/plain");
    const families = parsePrometheusTextFormat(await answer.text()) as Family[];
    const family = (name: string) => families.find((entry) => entry.name === name);
    const requests = family("site_http_requests_total");
    expect(requests?.type).toBe("COUNTER");
    const health = requests?.metrics.find((sample) => sample.labels?.route === "/healthz" && sample.labels.status === "200");
    expect(Number(health?.value)).toBeGreaterThanOrEqual(20);
    const missing = requests?.metrics.filter((sample) => sample.labels?.status === "404") ?? [];
    expect(missing.map((sample) => sample.labels?.route)).toEqual(["(not found)"]);
    expect(family("site_http_request_duration_seconds")?.type).toBe("HISTOGRAM");
    for (const name of ["site_mail_outbox_depth", "site_mail_outbox_oldest_age_seconds", "site_process_resident_memory_bytes"]) expect(family(name), name).toBeDefined();
    // Two workers, each with its own process metrics, summed by the primary: the heap is both workers' together.
    expect((server.output().match(/網站已啟動/g) ?? []).length).toBe(2);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/other`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
  });
});
