import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { MiddlewareHandler } from "hono";
import { currentRequestId } from "~/services/request-context.server";
import { cacheControlFor, finishedAnswer, sharedCacheSecondsFor } from "./headers";
import { carriesSessionCookie } from "./session-cookie";
import type { StartupFile } from "./startup-pages";

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml",
  ".woff2": "font/woff2",
  // React Router's single-fetch payload of a prerendered page (what client-side navigation loads).
  ".data": "text/x-script",
};

type Encoding = "br" | "gzip" | "identity";
interface Variant {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
}
interface StaticFile {
  /** Every header but the variant's own (ETag, encoding, length): made once at start-up. */
  headers: Record<string, string>;
  variants: Partial<Record<Encoding, Variant>>;
  /** Has precompressed variants, so the answer depends on Accept-Encoding. */
  negotiated: boolean;
  /** A prerendered page (or its .data): its HTML is for the address without a query string only. */
  page: boolean;
}

/** The security headers of a file (server/headers.ts `staticFileHeaders`); `pagePath` is set for a prerendered page. */
export type FileHeaders = (pagePath: string | null, contentType: string) => Record<string, string>;

/** What the answer from memory reads of a request: its method, decoded path, whether it has a query, and its headers. */
export interface FileRequest {
  method: string;
  pathname: string;
  hasQuery: boolean;
  header: (name: "accept-encoding" | "cookie" | "if-none-match") => string | undefined;
  /** Asked only when the file is answered. */
  requestId: () => string | undefined;
}

/** A file's whole answer: a plain header object (Node writes it as it is) and the variant's bytes (none for HEAD and 304). */
export interface FileAnswer {
  status: 200 | 304;
  headers: Record<string, string>;
  body: Uint8Array<ArrayBuffer> | null;
}

export interface StaticFiles {
  /** The Hono middleware: the answer below as a finished Response, or on to the next layer. */
  middleware: MiddlewareHandler;
  /** The answer to a request from memory, or null when the request goes on (server/memory-answers.ts asks too). */
  answer: (request: FileRequest) => FileAnswer | null;
  /** The pages rendered at start-up (server/startup-pages.ts), answered from then on as the build's files are. */
  add: (startupFiles: readonly StartupFile[]) => void;
}

/**
 * Hashed assets, public files and prerendered pages, read once at start-up into memory with their .br and .gz
 * twins (written by scripts/precompress.mjs), a strong ETag each and their whole header set. A request costs a
 * map look-up: no file system access, no compression, no header composed (the request id joins them here, and the
 * outer layers leave the finished answer alone). Only GET and HEAD are answered here;
 * every other method, a page address with a query string (`/blog?page=2`), and a page asked for with a session
 * cookie (whose header must know the visitor, also without JavaScript) go on to React Router.
 */
export function staticFiles(root: string, fileHeaders: FileHeaders = () => ({})): StaticFiles {
  const files = loadFiles(root, fileHeaders);
  const answer = (request: FileRequest): FileAnswer | null => {
    const { method } = request;
    if (method !== "GET" && method !== "HEAD") return null;
    const file = files.get(request.pathname);
    if (!file || (file.page && (request.hasQuery || carriesSessionCookie(request.header("cookie"))))) return null;
    return fileAnswer(file, request);
  };
  const middleware: MiddlewareHandler = async (c, next) => {
    const url = c.req.url;
    const queryAt = url.indexOf("?");
    const found = answer({
      method: c.req.method,
      pathname: pathnameOf(url, queryAt),
      hasQuery: queryAt !== -1,
      header: (name) => c.req.header(name),
      requestId: currentRequestId,
    });
    return found ? finishedAnswer(found.body, found.status, found.headers) : next();
  };
  const add = (startupFiles: readonly StartupFile[]) => {
    for (const file of startupFiles) {
      const variants: StaticFile["variants"] = { identity: variant(file.content) };
      if (file.br) variants.br = variant(file.br);
      if (file.gzip) variants.gzip = variant(file.gzip);
      addFile(files, file.urlPath, variants, fileHeaders);
    }
  };
  return { middleware, answer, add };
}

function fileAnswer(file: StaticFile, request: FileRequest): FileAnswer {
  const encoding = file.negotiated ? preferredEncoding(request.header("accept-encoding"), file) : "identity";
  const variant = file.variants[encoding]!;
  // A plain object keeps the Node adapter on its fast path (no Headers object is built).
  const headers: Record<string, string> = { ...file.headers, etag: variant.etag };
  const requestId = request.requestId();
  if (requestId) headers["x-request-id"] = requestId;
  if (encoding !== "identity") headers["content-encoding"] = encoding;
  if (request.header("if-none-match")?.split(/\s*,\s*/).includes(variant.etag)) return { status: 304, headers, body: null };
  headers["content-length"] = String(variant.body.length);
  return { status: 200, headers, body: request.method === "HEAD" ? null : variant.body };
}

/** The decoded path of a request URL (`http://host/a%20b?x` → `/a b`), or "" when it is not valid UTF-8. */
function pathnameOf(url: string, queryAt: number): string {
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  const raw = url.slice(pathStart, queryAt === -1 ? undefined : queryAt);
  if (!raw.includes("%")) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return "";
  }
}

function preferredEncoding(acceptEncoding: string | undefined, file: StaticFile): Encoding {
  if (!acceptEncoding) return "identity";
  if (file.variants.br && /\bbr\b/.test(acceptEncoding)) return "br";
  if (file.variants.gzip && /\bgzip\b/.test(acceptEncoding)) return "gzip";
  return "identity";
}

function loadFiles(root: string, fileHeaders: FileHeaders): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!fs.existsSync(root)) return files;
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || /\.(br|gz)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const urlPath = `/${path.relative(root, file).split(path.sep).join("/")}`;
    const variants: StaticFile["variants"] = { identity: variant(fs.readFileSync(file)) };
    for (const [encoding, suffix] of [["br", ".br"], ["gzip", ".gz"]] as const) {
      if (fs.existsSync(file + suffix)) variants[encoding] = variant(fs.readFileSync(file + suffix));
    }
    addFile(files, urlPath, variants, fileHeaders);
  }
  return files;
}

function addFile(files: Map<string, StaticFile>, urlPath: string, variants: StaticFile["variants"], fileHeaders: FileHeaders) {
  const page = urlPath.endsWith("/index.html") || urlPath.endsWith(".data");
  const pagePath = urlPath.endsWith("/index.html") ? urlPath.slice(0, -"/index.html".length) || "/" : null;
  const type = contentTypes[path.extname(urlPath)] ?? "application/octet-stream";
  const negotiated = Object.keys(variants).length > 1;
  // A page's answer depends on the cookie too (a signed-in visitor's is rendered for them).
  const vary = [...(negotiated ? ["Accept-Encoding"] : []), ...(page ? ["Cookie"] : [])].join(", ");
  const staticFile: StaticFile = {
    headers: {
      ...fileHeaders(pagePath, type),
      "content-type": type,
      "cache-control": cacheControlFor(urlPath),
      "x-accel-expires": sharedCacheSecondsFor(urlPath),
      ...(vary ? { vary } : {}),
    },
    variants,
    negotiated,
    page,
  };
  files.set(urlPath, staticFile);
  // A prerendered page answers at its address: /features for features/index.html, / for index.html.
  if (pagePath) files.set(pagePath, staticFile);
}

function variant(content: Buffer): Variant {
  const body = Uint8Array.from(content);
  return { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"` };
}
