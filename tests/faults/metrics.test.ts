import http from "node:http";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { describe, expect, it } from "vitest";
import { freePorts, startSite } from "./site-process";

/**
 * /metrics (docs/operations.md): with the default two workers the primary serves one scrape on METRICS_PORT, bound
 * to loopback, summed over both workers and parsed as the Prometheus text format; the site's own port answers 404.
 */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    // A connection of its own for each request, so the primary hands them to both workers.
    const request = http.get(url, { headers: { connection: "close", ...headers }, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
    });
    request.on("error", reject);
  });
}

describe("metrics", () => {
  it("sums both workers' counters on the loopback metrics port and answers 404 for /metrics on the site's port", async () => {
    const [metricsPort] = await freePorts(1);
    const site = await startSite({ WEB_CONCURRENCY: "2", METRICS_PORT: String(metricsPort) });
    try {
      const deadline = Date.now() + 60_000;
      while ((site.output().match(/網站已啟動/g) ?? []).length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      const pids = () => new Set([...site.output().matchAll(/"pid":(\d+),"requestId"/g)].map((match) => match[1]));
      // Until both workers have answered: a worker busy rendering its start-up pages (decision 1030) takes no
      // connection for a few seconds, and the kernel hands them to the other one meanwhile.
      let sent = 0;
      const bothDeadline = Date.now() + 60_000;
      while (pids().size < 2 && Date.now() < bothDeadline) {
        expect((await get(`${site.baseURL}/healthz`)).status).toBe(200);
        sent += 1;
      }
      expect(pids().size).toBe(2);

      expect((await get(`${site.baseURL}/metrics`)).status).toBe(404);

      const scrape = await get(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(scrape.status).toBe(200);
      const families = parsePrometheusTextFormat(scrape.text);
      const requests = families.find((family) => family.name === "site_http_requests_total");
      expect(requests?.type).toBe("COUNTER");
      const healthz = (requests?.metrics ?? []).filter((sample) => sample.labels?.route === "/healthz" && sample.labels?.status === "200");
      // Both workers' answers, summed into one series.
      expect(healthz.reduce((sum, sample) => sum + Number(sample.value), 0)).toBe(sent);
      expect(families.find((family) => family.name === "site_http_request_duration_seconds")?.type).toBe("HISTOGRAM");
      expect(families.some((family) => family.name === "site_process_resident_memory_bytes")).toBe(true);
    } finally {
      await site.stop();
    }
  });
});
