import { Hono, type Context } from "hono";
import { isDiskFull } from "~/services/disk-space.server";
import { unexpectedFailure } from "~/services/request-guard.server";
import type { RateLimiter } from "~/services/rate-limiter.server";
import type { Caller } from "./storage-rules.server";
import { StorageFailure } from "./storage-rules.server";
import { parseMetadataInput } from "./metadata-input.server";
import { parseMultipartRelated, readBody } from "./request-body.server";
import type { StorageService } from "./storage-service.server";
import { byteRange, contentDisposition, downloadCacheControl } from "./served-file.server";

/**
 * The Firebase Storage v0 protocol over HTTP (docs/storage.md): `/v0/b/<bucket>/o` for uploads (multipart,
 * resumable, raw) and listing, `/v0/b/<bucket>/o/<encoded path>` for metadata, bytes (`alt=media`, ranges),
 * metadata updates and deletion. Every error answers in the Firebase shape with a code of the original §8; an
 * unexpected one is noted by the request guard's rule.
 * Writes (POST, PATCH) are rate-limited per client address and per account; deletions never are, so
 * anyone can always free space.
 */
export interface StorageRouteDependencies {
  service: StorageService;
  resolveCaller(request: Request): Promise<Caller | null>;
  /** The client's address (after the trusted-proxy rule). */
  clientIp(c: Context): string;
  writeLimits: { perAddress: RateLimiter; perAccount: RateLimiter };
  /** Runs before each deletion (the disk guard makes room on a full disk). */
  beforeDelete(): Promise<void>;
  /** Resumable upload URLs name the site's origin when the request came for the site's host. */
  siteUrl: string;
}

const metadataBodyLimit = 64 * 1024;
const multipartOverhead = 64 * 1024;
const noStore = { "Cache-Control": "no-store" };

export function storageRoutes({ service, resolveCaller, clientIp, writeLimits, beforeDelete, siteUrl }: StorageRouteDependencies) {
  const routes = new Hono();

  routes.all("/v0/b/*", async (c) => {
    try {
      return await answer(c);
    } catch (error) {
      if (error instanceof StorageFailure) return c.json(error.body(), error.status as 400, { ...noStore, ...error.headers });
      if (c.req.method === "POST" && isDiskFull(error)) {
        // The database's disk is full too: the protocol's quota-exceeded, which clients do not retry for minutes.
        return c.json(new StorageFailure(402, "storage/quota-exceeded", "storage-full").body(), 402, noStore);
      }
      // The request guard's rule, in the Firebase shape: the request log writes it with the request id and its
      // stack (a dependency that is away turns it into 503 there).
      return unexpectedFailure(error, () => c.json(new StorageFailure(500, "storage/internal-error").body(), 500, noStore));
    }
  });

  async function answer(c: Context): Promise<Response> {
    const { bucket, path } = objectAddress(new URL(c.req.url).pathname);
    const request = c.req.raw;
    const method = request.method;
    const writing = method === "POST" || method === "PATCH";
    if (writing) await withinLimit(writeLimits.perAddress, clientIp(c));
    const caller = await resolveCaller(request);
    if (writing && caller) await withinLimit(writeLimits.perAccount, caller.uid);

    if (path === undefined) {
      if (method === "POST") return upload(c, caller, bucket);
      if (method === "GET") {
        const maxResults = Number(c.req.query("maxResults") ?? 1000);
        const result = await service.list(caller, bucket, {
          prefix: c.req.query("prefix") ?? "",
          delimiter: c.req.query("delimiter") || undefined,
          pageToken: c.req.query("pageToken") || undefined,
          maxResults: Number.isInteger(maxResults) && maxResults > 0 ? Math.min(maxResults, 1000) : 1000,
        });
        return c.json(result, 200, noStore);
      }
      throw new StorageFailure(405, "storage/invalid-argument");
    }

    switch (method) {
      case "GET":
      case "HEAD":
        if (c.req.query("alt") === "media") return download(c, caller, bucket, path);
        return c.json(await service.getMetadata(caller, bucket, path), 200, noStore);
      case "PATCH": {
        const body = await readBody(request, metadataBodyLimit);
        const patch = parseMetadataInput(parseJson(body));
        return c.json(await service.updateMetadata(caller, bucket, path, patch), 200, noStore);
      }
      case "DELETE":
        await beforeDelete();
        await service.remove(caller, bucket, path);
        return c.body(null, 204);
      default:
        throw new StorageFailure(405, "storage/invalid-argument");
    }
  }

  async function upload(c: Context, caller: Caller | null, bucket: string): Promise<Response> {
    const request = c.req.raw;
    const uploadId = c.req.query("upload_id");
    if (uploadId) {
      const commands = (request.headers.get("x-goog-upload-command") ?? "")
        .split(",")
        .map((command) => command.trim().toLowerCase());
      const offset = request.headers.get("x-goog-upload-offset");
      const chunk = commands.includes("upload") ? await readBody(request, service.limits.maxUploadBytes) : undefined;
      const state = await service.continueResumable(caller, uploadId, {
        commands,
        offset: offset === null ? undefined : Number(offset),
        chunk,
      });
      const headers = { ...noStore, "X-Goog-Upload-Status": state.status, "X-Goog-Upload-Size-Received": String(state.received) };
      return state.resource ? c.json(state.resource, 200, headers) : c.body(null, 200, headers);
    }

    const protocol = (request.headers.get("x-goog-upload-protocol") ?? c.req.query("uploadType") ?? "media").toLowerCase();
    if (protocol === "resumable") {
      const metadata = parseMetadataInput(parseJson(await readBody(request, metadataBodyLimit)));
      const name = c.req.query("name") ?? metadata.name ?? "";
      const declared = Number(request.headers.get("x-goog-upload-header-content-length"));
      const id = await service.startResumable(caller, bucket, name, metadata, Number.isFinite(declared) ? declared : undefined);
      const uploadUrl = `${originFor(request)}/v0/b/${encodeURIComponent(bucket)}/o?name=${encodeURIComponent(name)}&upload_id=${id}&upload_protocol=resumable`;
      return c.body(null, 200, { ...noStore, "X-Goog-Upload-Status": "active", "X-Goog-Upload-URL": uploadUrl });
    }
    if (protocol === "multipart") {
      const body = await readBody(request, service.limits.maxUploadBytes + multipartOverhead);
      const parts = parseMultipartRelated(request.headers.get("content-type") ?? "", body);
      const metadata = parseMetadataInput(parts.metadata);
      const name = c.req.query("name") ?? metadata.name ?? "";
      return c.json(await service.upload(caller, bucket, name, parts.bytes, metadata), 200, noStore);
    }
    const bytes = await readBody(request, service.limits.maxUploadBytes);
    return c.json(await service.upload(caller, bucket, c.req.query("name") ?? "", bytes, {}), 200, noStore);
  }

  async function download(c: Context, caller: Caller | null, bucket: string, path: string): Promise<Response> {
    const token = c.req.query("token");
    const file = await service.download(caller, bucket, path, token);
    const size = file.bytes.length;
    const headers: Record<string, string> = {
      "Content-Type": file.resource.contentType,
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": contentDisposition(file.resource),
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": downloadCacheControl(token !== undefined, file.publicFile),
      "Accept-Ranges": "bytes",
      ETag: `"${file.resource.md5Hash}"`,
      "Last-Modified": new Date(file.resource.updated).toUTCString(),
    };
    const range = byteRange(c.req.header("range"), size);
    if (range === "unsatisfiable") {
      return c.body(null, 416, { ...headers, "Content-Range": `bytes */${size}` });
    }
    const part = range ? file.bytes.subarray(range.start, range.end + 1) : file.bytes;
    const body = c.req.method === "HEAD" ? null : new Uint8Array(part);
    if (range) {
      headers["Content-Range"] = `bytes ${range.start}-${range.end}/${size}`;
    }
    headers["Content-Length"] = String(part.length);
    return new Response(body, { status: range ? 206 : 200, headers });
  }

  async function withinLimit(limiter: RateLimiter, key: string) {
    const decision = await limiter.hit(key);
    if (!decision.allowed) {
      throw new StorageFailure(429, "storage/quota-exceeded", "rate-limited", { "Retry-After": String(decision.retryAfterSeconds) });
    }
  }

  function originFor(request: Request): string {
    const site = new URL(siteUrl);
    return request.headers.get("host") === site.host ? site.origin : new URL(request.url).origin;
  }

  return routes;
}

/** `/v0/b/<bucket>/o[/<path>]`, each part percent-decoded (the path arrives as one encoded segment). */
function objectAddress(pathname: string): { bucket: string; path?: string } {
  const match = /^\/v0\/b\/([^/]+)\/o(?:\/(.*))?$/.exec(pathname);
  if (!match) throw new StorageFailure(400, "storage/invalid-url");
  try {
    return {
      bucket: decodeURIComponent(match[1]!),
      path: match[2] === undefined ? undefined : decodeURIComponent(match[2]),
    };
  } catch {
    throw new StorageFailure(400, "storage/invalid-url");
  }
}

function parseJson(body: Buffer): unknown {
  if (body.length === 0) return {};
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new StorageFailure(400, "storage/invalid-argument");
  }
}
