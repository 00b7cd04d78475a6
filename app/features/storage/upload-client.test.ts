// @vitest-environment happy-dom
// @vitest-environment-options {"url":"http://127.0.0.1:4510/"}
import http from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deleteFile, uploadFile } from "./upload-client";
import { StorageError } from "./storage-errors";
import { backoffMs, retryAfterMs } from "./retry-policy";

/**
 * The browser client against a real HTTP server on this machine whose answers each test scripts:
 * retries on 503 and on 429 with Retry-After, no retry on a refusal, progress, cancel.
 */
const port = 4510;
type Scripted = { status: number; headers?: Record<string, string>; body?: string };
let script: Scripted[] = [];
let seen: { method: string; url: string; contentType: string; body: Buffer; at: number }[] = [];
let server: http.Server;

const resource = (name: string) =>
  JSON.stringify({
    kind: "storage#object",
    id: `default/${name}`,
    bucket: "default",
    name,
    generation: "1",
    metageneration: "1",
    size: "4",
    contentType: "image/png",
    timeCreated: "2026-01-01T00:00:00.000Z",
    updated: "2026-01-01T00:00:00.000Z",
    md5Hash: "abc=",
    storageClass: "STANDARD",
    downloadTokens: "token-1,token-2",
  });

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      seen.push({
        method: request.method ?? "",
        url: request.url ?? "",
        contentType: request.headers["content-type"] ?? "",
        body: Buffer.concat(chunks),
        at: Date.now(),
      });
      const next = script.shift() ?? { status: 500 };
      response.writeHead(next.status, { "Content-Type": "application/json", ...next.headers });
      response.end(next.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  script = [];
  seen = [];
});

const png = () => new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: "image/png" });

describe("uploadFile", () => {
  it("retries after a 503 and hands back the path, the download link and the metadata of the original §3", async () => {
    script = [{ status: 503 }, { status: 200, body: resource("users/u1/a.png") }];
    const result = await uploadFile("users/u1/a.png", png());
    expect(seen).toHaveLength(2);
    const waited = seen[1]!.at - seen[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(1000);
    expect(waited).toBeLessThan(2500);
    expect(seen[0]!.url).toBe("/v0/b/default/o?name=users%2Fu1%2Fa.png&uploadType=multipart");
    expect(seen[0]!.contentType).toMatch(/^multipart\/related; boundary=/);
    expect(seen[0]!.body.toString("latin1")).toContain('"name":"users/u1/a.png"');
    expect(result.fullPath).toBe("users/u1/a.png");
    expect(result.downloadURL).toBe("/v0/b/default/o/users%2Fu1%2Fa.png?alt=media&token=token-1");
    expect(result.metadata).toMatchObject({ name: "a.png", size: 4, contentType: "image/png", bucket: "default" });
  });

  it("waits as long as a 429's Retry-After asks", async () => {
    script = [{ status: 429, headers: { "Retry-After": "3" } }, { status: 200, body: resource("users/u1/b.png") }];
    await uploadFile("users/u1/b.png", png());
    expect(seen).toHaveLength(2);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(3000);
  });

  it("does not retry a refusal and reports the server's code (the original §8) and finer reason in Chinese", async () => {
    script = [
      {
        status: 403,
        body: JSON.stringify({
          error: { code: 403, message: "…", reason: "storage/unauthorized", detail: "not-an-image" },
        }),
      },
    ];
    const failure = await uploadFile("users/u1/c.svg", png()).catch((error: unknown) => error);
    expect(seen).toHaveLength(1);
    expect(failure).toBeInstanceOf(StorageError);
    expect(failure).toMatchObject({ code: "storage/unauthorized", status: 403 });
    expect((failure as Error).message).toBe("只能上傳 PNG、JPEG、WebP 或 GIF 圖片");
  });

  it("maps a bare 402 to storage/quota-exceeded", async () => {
    script = [{ status: 402, body: "no" }];
    await expect(uploadFile("users/u1/d.png", png())).rejects.toMatchObject({ code: "storage/quota-exceeded" });
  });

  it("refuses the root without asking the server", async () => {
    await expect(uploadFile("", png())).rejects.toMatchObject({ code: "storage/invalid-root-operation" });
    await expect(deleteFile("/")).rejects.toMatchObject({ code: "storage/invalid-root-operation" });
    expect(seen).toHaveLength(0);
  });

  it("is cancelled while it waits to retry", async () => {
    script = [{ status: 500 }, { status: 200, body: resource("users/u1/e.png") }];
    const controller = new AbortController();
    const upload = uploadFile("users/u1/e.png", png(), { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await expect(upload).rejects.toMatchObject({ code: "storage/canceled", message: "已取消上傳或下載" });
    expect(seen).toHaveLength(1);
  });

  it("deletes with DELETE on the object's address and accepts 204", async () => {
    script = [{ status: 204 }];
    await deleteFile("users/u1/a b.png");
    expect(seen[0]).toMatchObject({ method: "DELETE", url: "/v0/b/default/o/users%2Fu1%2Fa%20b.png" });
  });
});

describe("retry policy (original §9)", () => {
  it("doubles from 1 s up to 64 s with up to a second of jitter", () => {
    expect([1, 2, 3, 7, 8, 12].map((retry) => backoffMs(retry, () => 0))).toEqual([
      1000, 2000, 4000, 64_000, 64_000, 64_000,
    ]);
    expect(backoffMs(1, () => 0.999)).toBe(1999);
  });

  it("reads Retry-After in seconds or as a date", () => {
    expect(retryAfterMs("5")).toBe(5000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs("soon")).toBeUndefined();
  });
});
