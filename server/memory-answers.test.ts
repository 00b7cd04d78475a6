// Which requests the answer from memory takes, and what it does besides writing the answer. That its answers are
// those of the middleware chain is held by tests/faults/memory-answers.test.ts, against the built site.
import fs from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metricsText } from "~/services/metrics.server";
import type { AnswerLine } from "./request-log";
import type { UpFrontAnswer, UpFrontRequest } from "./signed-in-pages";
import { memoryAnswers } from "./memory-answers";
import { staticFiles } from "./static-files";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "memory-answers-"));
const page = "<!DOCTYPE html><title>功能</title>".repeat(40);
for (const [relative, content] of [["features/index.html", page], ["dev/mailbox/index.html", page], ["assets/app-abc123.js", "console.log(1);"]] as const) {
  fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  fs.writeFileSync(path.join(root, relative), content);
}
fs.writeFileSync(path.join(root, "features/index.html.gz"), zlib.gzipSync(page));

const lines: AnswerLine[] = [];
// A signed-in parent's page (server/signed-in-pages.ts, held to the chain's answer by tests/faults/signed-in-pages.test.ts):
// here a parent whose cookie says "known" is answered, any other cookie left to the chain.
function signedInPages({ pathname, cookie: cookieOf, requestId }: UpFrontRequest): Promise<UpFrontAnswer | null> | null {
  const cookie = pathname === "/features" ? cookieOf() : undefined;
  if (!cookie?.includes("session_token")) return null;
  return Promise.resolve(cookie.includes("known") ? { status: 200, headers: { "x-request-id": requestId() }, body: "signed-in page" } : null);
}
const answerFromMemory = memoryAnswers({
  files: staticFiles(root, () => ({ "x-content-type-options": "nosniff" })),
  hosts: { siteUrl: "https://example.tw", allowedHostnames: ["example.tw"], isLoopbackSite: false },
  logAnswer: (line) => lines.push(line),
  signedInPages,
});
// What the chain would answer: a mark, so a test sees which path took the request (as server.mjs hands it on).
const server = http.createServer((incoming, outgoing) => {
  const answered = answerFromMemory(incoming, outgoing);
  if (answered === true) return;
  if (answered) void answered.then((done) => done || outgoing.writeHead(299).end("through Hono"));
  else outgoing.writeHead(299).end("through Hono");
});
let port = 0;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(root, { recursive: true, force: true });
});

/** A raw request, as written (a client library would refuse some of these headers); the status it got. */
function statusOf(target: string, headers: string[] = ["Host: example.tw"], method = "GET"): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
    socket.on("end", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.on("error", reject);
    socket.end(`${[`${method} ${target} HTTP/1.1`, ...headers, "Connection: close"].join("\r\n")}\r\n\r\n`);
  });
}

describe("answers from memory in front of Hono", () => {
  it("takes a GET or HEAD of a file's own address on one of the site's hosts, with its id, log line and count", async () => {
    expect(await statusOf("/features", ["Host: example.tw", "X-Request-Id: proxy.7", "Accept-Encoding: gzip"])).toBe(200);
    expect(lines.at(-1)).toMatchObject({ requestId: "proxy.7", method: "GET", path: "/features", status: 200 });
    expect(await statusOf("/assets/app-abc123.js?v=3", ["Host: example.tw"], "HEAD")).toBe(200);
    expect(lines.at(-1)).toMatchObject({ method: "HEAD", path: "/assets/app-abc123.js", status: 200 });
    expect(lines.at(-1)?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await metricsText()).toMatch(/site_http_requests_total\{route="\/features",method="GET",status="200"\} [1-9]/);
  });

  it("answers a signed-in parent's page when the page's own layer can, with its id, log line and count", async () => {
    expect(await statusOf("/features", ["Host: example.tw", "Cookie: better-auth.session_token=known", "X-Request-Id: parent.9"])).toBe(200);
    expect(lines.at(-1)).toMatchObject({ requestId: "parent.9", method: "GET", path: "/features", status: 200 });
    const before = lines.length;
    for (const headers of [
      ["Host: example.tw", "Cookie: better-auth.session_token=stale"],
      // Node and Hono read several Cookie headers differently: the chain decides.
      ["Host: example.tw", "Cookie: better-auth.session_token=known", "Cookie: theme=dark"],
    ]) {
      expect(await statusOf("/features", headers), headers.join(" / ")).toBe(299);
    }
    expect(await statusOf("/features?tab=1", ["Host: example.tw", "Cookie: better-auth.session_token=known"])).toBe(299);
    expect(await statusOf("/features", ["Host: example.tw", "Cookie: better-auth.session_token=known"], "HEAD")).toBe(299);
    expect(lines.length).toBe(before);
  });

  it("leaves to Hono whatever a layer it skips would answer otherwise", async () => {
    const throughHono: [string, string[]?, string?][] = [
      ["/features", ["Host: example.tw"], "POST"],
      ["/features?page=2"],
      ["/features", ["Host: example.tw", "Cookie: better-auth.session_token=abc"]],
      ["/features/"],
      ["//features"],
      ["/images/../features"],
      ["/%66eatures"],
      ["/dev/mailbox"],
      ["/nothing-here"],
      ["/features", ["Host: www.example.tw"]],
      ["/features", ["Host: elsewhere.example"]],
      ["/features", ["Host: bad_host!"]],
      ["/features", ["Host: example.tw", "Host: elsewhere.example"]],
      ["http://example.tw/features"],
    ];
    const before = lines.length;
    for (const [target, headers, method] of throughHono) expect(await statusOf(target, headers, method), `${method ?? "GET"} ${target} ${headers}`).toBe(299);
    expect(lines.length).toBe(before);
  });
});
