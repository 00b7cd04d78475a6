import { promisify } from "node:util";
import zlib from "node:zlib";
import type { MiddlewareHandler } from "hono";
import { inlineHashes, type CspHashes } from "~/features/security/csp.server";
import { countPageCache } from "~/services/metrics.server";
import { onPublicContentChanged, publicContentChanged } from "~/services/public-content.server";
import { carriesSessionCookie } from "./session-cookie";
import { hashedPagePolicy } from "./headers";

const gzip = promisify(zlib.gzip);

/**
 * The rendered answers of database pages as anonymous visitors see them, kept for a few seconds and dropped on
 * every write (decision 702). Signed-in visitors (a session cookie) always get a fresh render. A cached page is
 * the same bytes for everyone, so instead of a per-answer nonce its CSP names the hashes of its own inline
 * scripts and styles, as a prerendered page's does.
 */
export interface PageCacheOptions {
  /** How long an entry lives: also the longest another instance shows a page older than a write without Redis. */
  ttlSeconds: number;
  /** Bounds: entries and total bytes (plain + gzip); the oldest entry goes first. */
  maxEntries: number;
  maxBytes: number;
  cspHashes: CspHashes;
  analytics: boolean;
  formTargets: readonly string[];
  frames: readonly string[];
}

/** Pages whose HTML (and `.data` for client navigation) depends on the database but not on the visitor. */
const cacheable = /^\/(?:wishing-well(?:\/(?!unsubscribe\b)[\w-]+)?|dev-blog(?:\/(?!create\b|feed\b)[\w-]+)?|blog|news)(?:\.data)?$/;

/** The query parameters those pages read; an address with any other is rendered fresh (and never fills the cache). */
const knownParameters = new Set(["page", "order", "status", "tag", "category", "deleted", "_routes"]);

/** Unsafe requests that never change what those pages show (sign-in traffic, beacons, the app's OpenID endpoints). */
const notAWrite = /^\/(?:api\/(?:analytics|csp-report|auth\/(?:sign-in|sign-up|sign-out|get-session|request-password-reset|send-verification-email|verify-email))|login|signup|forgot-password|oidc)(?:[/.]|$)/;

interface Entry {
  status: number;
  headers: [string, string][];
  plain: Buffer;
  gzipped: Buffer;
  expires: number;
}

export function createPageCache(options: PageCacheOptions) {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.plain.length + entry.gzipped.length;
    entries.delete(key);
  };
  const clear = () => {
    entries.clear();
    bytes = 0;
  };
  onPublicContentChanged(clear);

  const store = (key: string, entry: Entry) => {
    drop(key);
    const size = entry.plain.length + entry.gzipped.length;
    if (size > options.maxBytes / 4) return;
    while (entries.size >= options.maxEntries || bytes + size > options.maxBytes) drop(entries.keys().next().value as string);
    entries.set(key, entry);
    bytes += size;
  };

  const answer = (entry: Entry, acceptsGzip: boolean, hit: boolean) => {
    countPageCache(hit ? "hit" : "miss");
    const headers = new Headers(entry.headers);
    headers.set("x-page-cache", hit ? "hit" : "miss");
    if (acceptsGzip) {
      headers.set("content-encoding", "gzip");
      headers.append("vary", "Accept-Encoding");
    }
    const body = acceptsGzip ? entry.gzipped : entry.plain;
    headers.set("content-length", String(body.length));
    return new Response(new Uint8Array(body), { status: entry.status, headers });
  };

  /** Serves and fills the cache; goes inside the compression and security headers (it sets its own CSP). */
  const middleware: MiddlewareHandler = async (c, next) => {
    const url = new URL(c.req.url);
    if (options.ttlSeconds <= 0 || c.req.method !== "GET" || !cacheable.test(url.pathname) || carriesSessionCookie(c.req.header("cookie"))) return next();
    for (const name of url.searchParams.keys()) if (!knownParameters.has(name)) return next();
    const key = url.pathname + url.search;
    const acceptsGzip = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
    const cached = entries.get(key);
    if (cached && cached.expires > Date.now()) return answer(cached, acceptsGzip, true);
    await next();
    const response = c.res;
    const type = response.headers.get("content-type") ?? "";
    const cacheControl = response.headers.get("cache-control") ?? "";
    if (response.status !== 200 || response.headers.has("set-cookie") || response.headers.has("content-encoding") || /private|no-store/.test(cacheControl)) return;
    const plain = Buffer.from(await response.arrayBuffer());
    const headers = [...response.headers].filter(([name]) => name !== "content-length" && name !== "date");
    if (type.includes("text/html")) headers.push(["content-security-policy", hashedPagePolicy(inlineHashes(plain.toString("utf8")), options)]);
    const entry: Entry = { status: 200, headers, plain, gzipped: await gzip(plain, { level: 9 }), expires: Date.now() + options.ttlSeconds * 1000 };
    store(key, entry);
    c.res = undefined;
    c.res = answer(entry, acceptsGzip, false);
  };

  /** After every successful write (outside the list of requests that change nothing public): drop every entry, everywhere. */
  const invalidateOnWrite: MiddlewareHandler = async (c, next) => {
    await next();
    const method = c.req.method;
    if (method === "GET" || method === "HEAD" || method === "OPTIONS" || c.res.status >= 400) return;
    if (!notAWrite.test(c.req.path)) publicContentChanged();
  };

  return { middleware, invalidateOnWrite, size: () => ({ entries: entries.size, bytes }) };
}
