import { randomFillSync } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { contentSecurityPolicy, cspNonceHeader, cspReportPath, resourcePolicy, type CspHashes } from "~/features/security/csp.server";
import { templateHeader, templateVariantHeader } from "~/features/shell/signed-in-pages.server";

const nonces = new WeakMap<Request, string>();

/**
 * The request handed to React Router, carrying this answer's nonce in the one header the app trusts for it, and
 * never the header that asks for a signed-in template (only the host makes those requests).
 */
export function withCspNonce(c: Context, request: Request): Request {
  const headers = new Headers(request.headers);
  const nonce = nonces.get(c.req.raw);
  if (nonce) headers.set(cspNonceHeader, nonce);
  else headers.delete(cspNonceHeader);
  headers.delete(templateHeader);
  headers.delete(templateVariantHeader);
  return new Request(request, { headers });
}

export interface HeaderOptions {
  https: boolean;
  cspHashes: CspHashes;
  analytics: boolean;
  /** Where a page's form may end up besides the site: the registered apps' redirect addresses. */
  formTargets: readonly string[];
  /** What a page may frame besides itself (the bot check's provider). */
  frames: readonly string[];
}

/** The headers every answer carries whatever its content (the CSP and COOP come on top). */
function commonHeaders(options: { https: boolean }): [string, string][] {
  const headers: [string, string][] = [
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["X-Frame-Options", "DENY"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=()"],
    ["Cross-Origin-Resource-Policy", "same-origin"],
    ["Reporting-Endpoints", `csp="${cspReportPath}"`],
  ];
  if (options.https) headers.push(["Strict-Transport-Security", "max-age=31536000; includeSubDomains"]);
  return headers;
}

const defaultOpenerPolicy: [string, string] = ["Cross-Origin-Opener-Policy", "same-origin-allow-popups"];

/**
 * The whole header set of a file served from the build (server/static-files.ts), made once at start-up: the same
 * headers `securityHeaders` gives a dynamic answer, with the build's hashes as the CSP of a prerendered page.
 */
export function staticFileHeaders(options: HeaderOptions): (pagePath: string | null, contentType: string) => Record<string, string> {
  const common = commonHeaders(options);
  return (pagePath, contentType) => {
    const scriptHashes = pagePath === null ? undefined : options.cspHashes.pages[pagePath];
    const policy =
      contentType.includes("text/html") && scriptHashes
        ? contentSecurityPolicy({ scriptHashes, styleHashes: options.cspHashes.styles, analytics: options.analytics, formTargets: options.formTargets, frames: options.frames })
        : resourcePolicy;
    return Object.fromEntries([...common, defaultOpenerPolicy, ["Content-Security-Policy", policy]]);
  };
}

const nonceBytes = 18;
/** Random bytes for 256 nonces, cut in turn and refilled when used up (as Node's randomUUID keeps its own). */
const nonceBytesKept = Buffer.alloc(nonceBytes * 256);
let nonceBytesAt = nonceBytesKept.length;

/** A fresh CSP nonce: 18 bytes from the system's random source, one system call per 256 answers instead of per answer. */
export function freshNonce(): string {
  if (nonceBytesAt === nonceBytesKept.length) {
    randomFillSync(nonceBytesKept);
    nonceBytesAt = 0;
  }
  nonceBytesAt += nonceBytes;
  return nonceBytesKept.toString("base64", nonceBytesAt - nonceBytes, nonceBytesAt);
}

/**
 * Headers every dynamic answer carries, error and not-found answers included; HSTS only where the site itself is
 * served over https. Pages get the CSP with a fresh nonce (files from the build have theirs from `staticFileHeaders`).
 */
export function securityHeaders(options: HeaderOptions): MiddlewareHandler {
  const common = commonHeaders(options);
  const policyFor = pagePolicy(options);
  return async (c, next) => {
    const nonce = freshNonce();
    nonces.set(c.req.raw, nonce);
    await next();
    // A route may set its own resource policy (file downloads the app may embed: server/app-origin.ts).
    const headers = c.res.headers.has("Cross-Origin-Resource-Policy") ? common.filter(([name]) => name !== "Cross-Origin-Resource-Policy") : [...common];
    // A route may set its own (the sign-in pop-up's last page must keep its opener).
    if (!c.res.headers.has("Cross-Origin-Opener-Policy")) headers.push(defaultOpenerPolicy);
    headers.push(...contentSecurityHeader(c, nonce, policyFor));
    setOnAnswer(c, headers);
  };
}

/**
 * The security headers of a page but its CSP, as `securityHeaders` gives them: for an answer written in front of
 * the middleware chain with a CSP of its own (server/signed-in-pages.ts).
 */
export const fixedPageHeaders = (options: HeaderOptions): Record<string, string> => Object.fromEntries([...commonHeaders(options), defaultOpenerPolicy]);

/**
 * The CSP of a page that is the same bytes on every answer (a cached page, a parent's filled page): instead of a
 * nonce, the hashes of its own inline scripts, and of its inline styles beside the start-up pages'.
 */
export function hashedPagePolicy(hashes: { scripts: readonly string[]; styles: readonly string[] }, options: Omit<HeaderOptions, "https">): string {
  return contentSecurityPolicy({
    scriptHashes: hashes.scripts,
    styleHashes: [...new Set([...options.cspHashes.styles, ...hashes.styles])],
    analytics: options.analytics,
    formTargets: options.formTargets,
    frames: options.frames,
  });
}

/** Stands for the nonce in a policy made once: never a nonce itself (base64 has no `!`). */
const nonceMark = "!nonce!";

/** A page's CSP with a given nonce, made once around it, and again only if the start-up pages' style hashes arrived since. */
function pagePolicy(options: HeaderOptions): (nonce: string) => string {
  let policy = { styles: -1, around: [] as string[] };
  return (nonce) => {
    if (policy.styles !== options.cspHashes.styles.length) {
      const made = contentSecurityPolicy({ nonce: nonceMark, styleHashes: options.cspHashes.styles, analytics: options.analytics, formTargets: options.formTargets, frames: options.frames });
      policy = { styles: options.cspHashes.styles.length, around: made.split(nonceMark) };
    }
    return policy.around.join(nonce);
  };
}

/**
 * The answer's CSP, unless a route set its own (Better Auth's pop-up completion page, the development sign-in
 * page): a page rendered now (a POST to a prerendered address reaches its action, `?page=2` is rendered per
 * request) gets this answer's nonce; anything that is not a page gets the resource policy.
 */
function contentSecurityHeader(c: Context, nonce: string, policyFor: (nonce: string) => string): [string, string][] {
  if (c.res.headers.has("Content-Security-Policy")) return [];
  if (!(c.res.headers.get("content-type") ?? "").includes("text/html")) return [["Content-Security-Policy", resourcePolicy]];
  return [["Content-Security-Policy", policyFor(nonce)]];
}

const finishedAnswers = new WeakSet<Response>();

/**
 * An answer whose header set is whole when it is made (a file of the build: `staticFileHeaders` and the request
 * id): the outer layers leave its headers alone. Reading them would turn the Node adapter's plain header object
 * into a Headers object and back, a good part of a static file's cost.
 */
export function finishedAnswer(body: BodyInit | null, status: number, headers: Record<string, string>): Response {
  const response = new Response(body, { status, headers });
  finishedAnswers.add(response);
  return response;
}

export const isFinishedAnswer = (response: Response) => finishedAnswers.has(response);

/**
 * Sets headers on the finished answer in place. `c.header()` after `next()` rebuilds the Response around its
 * body stream on every call, which cost a static page most of its time (decision 701); a Response with
 * immutable headers (Response.redirect) still goes that way.
 */
export function setOnAnswer(c: Context, headers: [string, string][]) {
  try {
    for (const [name, value] of headers) c.res.headers.set(name, value);
  } catch {
    for (const [name, value] of headers) c.header(name, value);
  }
}

/**
 * The outermost guarantee that every answer, whatever wrote it, carries the common headers and a CSP: answers
 * made before `securityHeaders` runs (a bad Host header's 400, the canonical redirects) or after it (the 503 that
 * replaces a failed answer, the last-resort 500) get the common set and the resource policy. Answers that already
 * have them (every page, every file of the build) cost two header look-ups.
 */
export function baselineHeaders(options: { https: boolean }): MiddlewareHandler {
  const common = commonHeaders(options);
  return async (c, next) => {
    await next();
    if (isFinishedAnswer(c.res)) return;
    if (c.res.headers.has("X-Content-Type-Options") && c.res.headers.has("Content-Security-Policy")) return;
    const missing = [...common, defaultOpenerPolicy, ["Content-Security-Policy", resourcePolicy] as [string, string]];
    setOnAnswer(c, missing.filter(([name]) => !c.res.headers.has(name)));
  };
}

/** The common headers and the resource policy, for an answer written outside the middleware chain. */
export function standaloneHeaders(options: { https: boolean }): Record<string, string> {
  return Object.fromEntries([...commonHeaders(options), defaultOpenerPolicy, ["Content-Security-Policy", resourcePolicy]]);
}

const isHashedAsset = (path: string) => /\/assets\//.test(path);

/** Hashed build assets never change; everything else is revalidated on each visit. */
export function cacheControlFor(path: string): string {
  return isHashedAsset(path) ? "public, max-age=31536000, immutable" : "public, max-age=0, must-revalidate";
}

/**
 * How long the deploy recipe's nginx may answer a file of the build or a visitor's prerendered page itself
 * (`X-Accel-Expires`, which nginx reads and never passes on; deploy/nginx.conf.template). Only these answers carry
 * it: each is the same for everybody who sends the same Accept-Encoding and Cookie (the Vary). A page for 5 s, so a
 * new release's pages are everywhere within seconds; a hashed asset for a day.
 */
export function sharedCacheSecondsFor(path: string): string {
  return isHashedAsset(path) ? "86400" : "5";
}
