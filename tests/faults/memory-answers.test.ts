import fs from "node:fs";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePorts, siteUrl, startSite, type SiteProcess } from "./site-process";

/**
 * The build's files and the prerendered pages are answered in front of Hono (server/memory-answers.ts); with
 * MEMORY_ANSWERS=off the same requests go through the whole middleware chain. Both starts must give every request
 * the same answer, byte for byte apart from the Date line: status, every header in its order, body; and the same
 * request log line and metrics. So the two paths cannot drift apart.
 */
const host = new URL(siteUrl).host;
const sameId = "same-request-id.1";

interface RawRequest {
  method?: string;
  path: string;
  /** Header lines as sent, in order (Host first unless given); `X-Request-Id` and `Connection: close` are added. */
  headers?: [string, string][];
}

/** One request over its own connection, written byte by byte as given; the raw answer, Date line removed. */
function exchange(baseURL: string, request: RawRequest): Promise<string> {
  const { port } = new URL(baseURL);
  const headers = request.headers ?? [];
  const lines = [
    `${request.method ?? "GET"} ${request.path} HTTP/1.1`,
    ...(headers.some(([name]) => name.toLowerCase() === "host") ? [] : [`Host: ${host}`]),
    ...headers.map(([name, value]) => `${name}: ${value}`),
    `X-Request-Id: ${sameId}`,
    "Connection: close",
  ];
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("latin1").replace(/^Date: .*\r\n/im, "")));
    socket.on("error", reject);
    socket.setTimeout(20_000, () => socket.destroy(new Error(`${request.path}: no answer`)));
    socket.end(`${lines.join("\r\n")}\r\n\r\n`);
  });
}

/**
 * Hono answers HEAD by rebuilding the GET answer around a Headers object: the same fields in its own order and
 * lower case, which carry no meaning (RFC 9110, section 5.3). For HEAD the fields are compared sorted, names in lower case.
 */
function fieldsSorted(answer: string): string {
  const [head = "", body = ""] = answer.split("\r\n\r\n");
  const [statusLine, ...fields] = head.split("\r\n");
  const sorted = fields.map((field) => field.replace(/^[^:]+/, (name) => name.toLowerCase())).sort();
  return [[statusLine, ...sorted].join("\r\n"), body].join("\r\n\r\n");
}

/** The site's start line says the start-up pages are rendered (until then they are rendered per request). */
async function pagesRendered(site: SiteProcess) {
  const deadline = Date.now() + 60_000;
  while (!site.output().includes('"event":"start"')) {
    if (Date.now() > deadline) throw new Error(`no start line within 60 s:\n${site.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The request log's line for each request path, without what differs by nature (time, pid, duration). */
function requestLines(site: SiteProcess): unknown[] {
  return site
    .output()
    .split("\n")
    .filter((line) => line.includes(`"requestId":"${sameId}"`))
    .map((line) => {
      const { time: _time, pid: _pid, durationMs, ...rest } = JSON.parse(line) as Record<string, unknown>;
      expect(typeof durationMs).toBe("number");
      return rest;
    });
}

/** The request counters from the metrics port, without the latency histogram's buckets (their values are times). */
async function requestCounters(metricsPort: number): Promise<string[]> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return text.split("\n").filter((line) => line.startsWith("site_http_requests_total{") || line.startsWith("site_http_request_duration_seconds_count{"));
}

const sites: { site: SiteProcess; metricsPort: number }[] = [];

beforeAll(async () => {
  const ports = await freePorts(2);
  for (const [index, answers] of (["on", "off"] as const).entries()) {
    const metricsPort = ports[index]!;
    const site = await startSite({ MEMORY_ANSWERS: answers, METRICS_PORT: String(metricsPort) });
    sites.push({ site, metricsPort });
    await pagesRendered(site);
  }
});

afterAll(async () => {
  for (const { site } of sites) await site.stop();
});

describe("answers from memory, in front of Hono", () => {
  it("are byte for byte the answers of the middleware chain, with the same log line and metrics", async () => {
    const [fast, chain] = sites.map(({ site }) => site) as [SiteProcess, SiteProcess];
    const asset = fs.readdirSync(`${process.env.BUILD_DIR || "build-test"}/client/assets`).find((name) => name.endsWith(".js"))!;
    const featuresEtag = /^etag: (.*)\r$/im.exec(await exchange(chain.baseURL, { path: "/features", headers: [["Accept-Encoding", "br"]] }))?.[1] ?? "";
    await exchange(fast.baseURL, { path: "/features", headers: [["Accept-Encoding", "br"]] });
    // Each with the status it must get, so the test is known to compare what it means to: pages and files from
    // memory, 304s, HEAD, then what goes through Hono on both (other spellings of a file's address, redirects, Hosts).
    const requests: (RawRequest & { status: number })[] = [
      { status: 200, path: "/", headers: [["Accept-Encoding", "gzip, deflate, br"]] },
      { status: 200, path: "/", headers: [["Accept-Encoding", "gzip"]] },
      { status: 200, path: "/" },
      { status: 200, path: "/index.html", headers: [["Accept-Encoding", "br"]] },
      { status: 200, path: "/features", headers: [["Accept-Encoding", "br"]] },
      { status: 200, method: "HEAD", path: "/features", headers: [["Accept-Encoding", "gzip"]] },
      { status: 304, path: "/features", headers: [["Accept-Encoding", "br"], ["If-None-Match", featuresEtag]] },
      { status: 304, path: "/features", headers: [["Accept-Encoding", "br"], ["If-None-Match", `"other", ${featuresEtag}`]] },
      // Each encoding has its own ETag.
      { status: 200, path: "/features", headers: [["Accept-Encoding", "gzip"], ["If-None-Match", featuresEtag]] },
      { status: 200, path: "/features.data", headers: [["Accept-Encoding", "br"]] },
      { status: 200, path: "/_.data", headers: [["Accept-Encoding", "gzip"]] },
      { status: 200, path: "/login", headers: [["Accept-Encoding", "br"], ["Cookie", "theme=dark"]] },
      { status: 200, path: `/assets/${asset}`, headers: [["Accept-Encoding", "br"]] },
      { status: 200, path: `/assets/${asset}?v=2`, headers: [["Accept-Encoding", "gzip"]] },
      { status: 200, method: "HEAD", path: `/assets/${asset}` },
      { status: 200, path: "/favicon.svg" },
      { status: 200, path: "/images/../favicon.svg" },
      { status: 200, path: "/%66eatures", headers: [["Accept-Encoding", "br"]] },
      { status: 301, path: "/features/", headers: [["Accept-Encoding", "br"]] },
      { status: 301, path: "//features" },
      { status: 301, path: "/features", headers: [["Host", `www.${host}`]] },
      { status: 400, path: "/features", headers: [["Host", "bad_host!"]] },
      { status: 400, path: "/features", headers: [["Host", host], ["Host", "other.example"]] },
    ];
    for (const request of requests) {
      const [ours, theirs] = [await exchange(fast.baseURL, request), await exchange(chain.baseURL, request)];
      const label = `${request.method ?? "GET"} ${request.path} ${JSON.stringify(request.headers ?? [])}`;
      if (request.method === "HEAD") expect(fieldsSorted(ours), label).toBe(fieldsSorted(theirs));
      else expect(ours, label).toBe(theirs);
      expect(ours.slice(0, 12), label).toBe(`HTTP/1.1 ${request.status}`);
      if (request.method === "HEAD") expect(ours, label).toMatch(/\r\n\r\n$/);
    }

    // A log line goes out at the end of its answer's turn of the event loop (app/services/log-destination.server.ts).
    for (const site of [fast, chain]) await expect.poll(() => requestLines(site).length).toBe(requests.length + 1);
    const [fastLines, chainLines] = [requestLines(fast), requestLines(chain)];
    expect(fastLines).toEqual(chainLines);
    const [fastCounters, chainCounters] = (await Promise.all(sites.map(({ metricsPort }) => requestCounters(metricsPort)))) as [string[], string[]];
    expect(fastCounters.some((line) => line.includes('route="/features"'))).toBe(true);
    expect(fastCounters).toEqual(chainCounters);
  });

  it("gives a request without a sane id one of its own, as the chain does", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(sites[0]!.site.baseURL).port), "127.0.0.1");
      let text = "";
      socket.on("data", (chunk: Buffer) => (text += chunk.toString("latin1")));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
      socket.end(`GET /features HTTP/1.1\r\nHost: ${host}\r\nX-Request-Id: not a sane id\r\nConnection: close\r\n\r\n`);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/^x-request-id: [0-9a-f-]{36}\r$/im);
  });
});
