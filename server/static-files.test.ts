import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { Hono } from "hono";
import { afterAll, describe, expect, it } from "vitest";
import { staticFiles } from "./static-files";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "static-files-"));
const page = "<!DOCTYPE html><title>功能</title>".repeat(40);
function write(relative: string, content: string, precompress = false) {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  if (precompress) {
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content));
  }
}
write("index.html", page, true);
write("features/index.html", page, true);
write("features.data", "[1]", false);
write("assets/app-abc123.js", "console.log(1);".repeat(50), true);
write("favicon.svg", "<svg/>");

const app = new Hono();
// Stands in for server/headers.ts: names the page a file is for, so the test sees which file got which headers.
app.use(staticFiles(root, (pagePath, contentType) => ({ "x-page": pagePath ?? "none", "x-for-type": contentType })).middleware);
app.all("*", (c) => c.text(`router ${c.req.method}`, 200));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const get = (url: string, headers: Record<string, string> = {}, method = "GET") =>
  app.request(url, { method, headers });

describe("static files from memory", () => {
  it("answers a prerendered page at its address with the best encoding the client accepts", async () => {
    const br = await get("/features", { "accept-encoding": "gzip, deflate, br" });
    expect(br.status).toBe(200);
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("content-type")).toBe("text/html; charset=utf-8");
    // A page also varies by Cookie: a signed-in visitor is rendered for them instead (server/session-cookie.ts).
    expect(br.headers.get("vary")).toBe("Accept-Encoding, Cookie");
    expect(br.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    // The deploy recipe's nginx may answer it itself for 5 s (deploy/nginx.conf.template).
    expect(br.headers.get("x-accel-expires")).toBe("5");
    expect(zlib.brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(page);

    const gzip = await get("/", { "accept-encoding": "gzip" });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(zlib.gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString()).toBe(page);

    const plain = await get("/");
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(page);
  });

  it("gives each encoding its own ETag and answers a matching If-None-Match with 304", async () => {
    const br = await get("/features", { "accept-encoding": "br" });
    const plain = await get("/features");
    const etag = br.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(plain.headers.get("etag")).not.toBe(etag);

    const revalidated = await get("/features", { "accept-encoding": "br", "if-none-match": `"other", ${etag}` });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("etag")).toBe(etag);
    expect(await revalidated.text()).toBe("");
    expect((await get("/features", { "if-none-match": etag })).status).toBe(200);
  });

  it("caches hashed assets for a year and serves them whatever the query string", async () => {
    const asset = await get("/assets/app-abc123.js?v=1", { "accept-encoding": "br" });
    expect(asset.status).toBe(200);
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(asset.headers.get("x-accel-expires")).toBe("86400");
    expect(asset.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const icon = await get("/favicon.svg", { "accept-encoding": "br" });
    expect(icon.headers.get("content-encoding")).toBeNull();
    expect(icon.headers.get("vary")).toBeNull();
    expect(await icon.text()).toBe("<svg/>");
  });

  it("answers HEAD with the headers only", async () => {
    const head = await get("/features", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(page)));
    expect(await head.text()).toBe("");
  });

  it("leaves other methods, page addresses with a query string and unknown paths to the router", async () => {
    expect(await (await get("/features", {}, "POST")).text()).toBe("router POST");
    expect(await (await get("/features?page=2")).text()).toBe("router GET");
    expect(await (await get("/features.data?_routes=root")).text()).toBe("router GET");
    expect(await (await get("/nothing-here")).text()).toBe("router GET");
    expect(await (await get("/%E0%A4%A")).text()).toBe("router GET");
  });

  it("serves a prerendered page's data file for client-side navigation", async () => {
    const data = await get("/features.data");
    expect(data.headers.get("content-type")).toBe("text/x-script");
    expect(await data.text()).toBe("[1]");
  });

  it("sends each file the headers made for it at start-up, on 200 and on 304 alike", async () => {
    for (const [url, page, type] of [
      ["/features", "/features", "text/html; charset=utf-8"],
      ["/features/index.html", "/features", "text/html; charset=utf-8"],
      ["/", "/", "text/html; charset=utf-8"],
      ["/features.data", "none", "text/x-script"],
      ["/favicon.svg", "none", "image/svg+xml"],
    ] as const) {
      const answer = await get(url);
      expect([answer.headers.get("x-page"), answer.headers.get("x-for-type")]).toEqual([page, type]);
      const again = await get(url, { "if-none-match": answer.headers.get("etag") ?? "" });
      expect(again.status).toBe(304);
      expect(again.headers.get("x-page")).toBe(page);
    }
  });
});
