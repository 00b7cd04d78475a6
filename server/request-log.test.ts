// The answer that replaces a failed one (503 while a dependency is away, 500 after a throw) describes its own body.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { Hono, type Handler } from "hono";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { createLogger } from "~/services/logger.server";
import { noteRequestError } from "~/services/request-context.server";
import { compressDynamic } from "./compression";
import { requestContext } from "./request-log";
import { staticFiles } from "./static-files";

const silent = pino({ level: "silent" });
const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

function site(handler: Handler) {
  const app = new Hono();
  app.use(requestContext(silent));
  app.use(async (c, next) => {
    await next();
    c.res.headers.set("X-Content-Type-Options", "nosniff");
  });
  app.use(compressDynamic());
  app.get("/page", handler);
  return app;
}

const browser = { accept: "text/html", "accept-encoding": "gzip, br" };

describe("an answer replaced after compression", () => {
  it("a 503 that replaces a gzipped 500 page carries its own body's headers, not the gzip ones", async () => {
    const app = site((c) => {
      noteRequestError(refused());
      return c.html(`<p>${"錯誤".repeat(2000)}</p>`, 500);
    });
    const response = await app.request("/page", { headers: browser });
    expect(response.status).toBe(503);
    expect(response.headers.get("content-encoding")).toBeNull();
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get("content-length") ?? String(body.length)).toBe(String(body.length));
    expect(body.toString("utf8")).toContain("服務暫時無法使用");
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("retry-after")).toBe("5");
    expect(response.headers.get("cache-control")).toBe("no-store");
    // What is not about the body stays: the security headers set on the way out.
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("a JSON client gets the 503 as plain JSON", async () => {
    const app = site((c) => {
      noteRequestError(refused());
      return c.json({ detail: "x".repeat(4000) }, 500);
    });
    const response = await app.request("/page", { headers: { accept: "application/json", "accept-encoding": "gzip" } });
    expect(response.status).toBe(503);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.json()).toMatchObject({ code: "service-unavailable" });
  });

  it("an answer that is not replaced stays gzipped and whole", async () => {
    const app = site((c) => c.html(`<p>${"好".repeat(2000)}</p>`));
    const response = await app.request("/page", { headers: browser });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get("content-length")).toBe(String(body.length));
    expect(gunzipSync(body).toString("utf8")).toContain("好好");
  });
});

describe("the request id", () => {
  it("is on every answer, set in place: a proxy's sane id is kept, otherwise a new one; fixed headers get it too", async () => {
    const app = new Hono();
    app.use(requestContext(silent));
    app.get("/file", () => new Response(new Uint8Array([1, 2, 3]), { headers: { "content-type": "application/octet-stream" } }));
    // Response.redirect's headers cannot change: the id still reaches the answer.
    app.get("/moved", () => Response.redirect("http://localhost/file", 301));

    const kept = await app.request("/file", { headers: { "x-request-id": "from-proxy.1" } });
    expect(kept.headers.get("x-request-id")).toBe("from-proxy.1");
    expect(new Uint8Array(await kept.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
    const made = await app.request("/file", { headers: { "x-request-id": "not a sane id" } });
    expect(made.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const moved = await app.request("/moved");
    expect(moved.status).toBe(301);
    expect(moved.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a file of the build carries its id among the headers it was made with", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "request-id-"));
    fs.writeFileSync(path.join(root, "robots.txt"), "User-agent: *");
    const app = new Hono();
    app.use(requestContext(silent));
    app.use(staticFiles(root, () => ({ "x-content-type-options": "nosniff" })).middleware);
    const file = await app.request("/robots.txt", { headers: { "x-request-id": "from-proxy.2" } });
    fs.rmSync(root, { recursive: true, force: true });
    expect(file.headers.get("x-request-id")).toBe("from-proxy.2");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await file.text()).toBe("User-agent: *");
  });
});

describe("the request log", () => {
  it("writes one line per answer with its fields; a failed answer's line keeps the redaction of its error", async () => {
    const lines: Record<string, unknown>[] = [];
    const app = new Hono();
    app.use(requestContext(createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) })));
    app.get("/ok", (c) => c.text("好"));
    app.get("/fails", (c) => {
      noteRequestError(Object.assign(new Error("broken"), { email: "parent@example.tw" }));
      return c.text("錯誤", 500);
    });
    await app.request("/ok?token=secret", { headers: { "x-request-id": "from-proxy.3" } });
    await app.request("/fails");
    expect(lines[0]).toMatchObject({ requestId: "from-proxy.3", method: "GET", path: "/ok", status: 200, msg: "request" });
    expect(lines[0]).toHaveProperty("durationMs");
    expect(JSON.stringify(lines[0])).not.toContain("secret");
    expect(lines[1]).toMatchObject({ path: "/fails", status: 500, err: { email: "[redacted]" } });
  });
});
