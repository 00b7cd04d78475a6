import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { contentSecurityPolicy, cspNonceHeader, resourcePolicy, type CspHashes } from "~/features/security/csp.server";

const nonces = new WeakMap<Request, string>();

/** The build's hashes of prerendered pages (scripts/csp-hashes.mjs); none in development or before a build. */
export function loadCspHashes(buildDir: string): CspHashes {
  try {
    return JSON.parse(fs.readFileSync(path.join(buildDir, "csp-hashes.json"), "utf8")) as CspHashes;
  } catch {
    return { pages: {}, styles: [] };
  }
}

/** The request handed to React Router, carrying this answer's nonce in the one header the app trusts for it. */
export function withCspNonce(c: Context, request: Request): Request {
  const headers = new Headers(request.headers);
  const nonce = nonces.get(c.req.raw);
  if (nonce) headers.set(cspNonceHeader, nonce);
  else headers.delete(cspNonceHeader);
  return new Request(request, { headers });
}

/**
 * Headers every answer carries, error and not-found answers included; HSTS only where the site itself is served
 * over https. Pages get the CSP: a fresh nonce for server-rendered ones, the build's hashes for prerendered files.
 */
export function securityHeaders(options: { https: boolean; cspHashes: CspHashes; analytics: boolean }): MiddlewareHandler {
  return async (c, next) => {
    const nonce = randomBytes(18).toString("base64");
    nonces.set(c.req.raw, nonce);
    await next();
    const headers: [string, string][] = [
      ["X-Content-Type-Options", "nosniff"],
      ["Referrer-Policy", "strict-origin-when-cross-origin"],
      ["X-Frame-Options", "DENY"],
      ["Permissions-Policy", "camera=(), microphone=(), geolocation=()"],
      ["Cross-Origin-Resource-Policy", "same-origin"],
      ["Reporting-Endpoints", 'csp="/api/csp-report"'],
    ];
    // A route may set its own (the sign-in pop-up's last page must keep its opener).
    if (!c.res.headers.has("Cross-Origin-Opener-Policy")) headers.push(["Cross-Origin-Opener-Policy", "same-origin-allow-popups"]);
    if (options.https) headers.push(["Strict-Transport-Security", "max-age=31536000; includeSubDomains"]);
    headers.push(...contentSecurityHeader(c, nonce, options));
    setOnAnswer(c, headers);
  };
}

/**
 * The answer's CSP, unless a route set its own (Better Auth's pop-up completion page, the development sign-in
 * page). A GET of a prerendered path without a query string was answered from its file and gets the build's
 * hashes; anything else (a POST to it reaches the route action, `?page=2` is rendered now) gets this answer's nonce.
 */
function contentSecurityHeader(
  c: Context,
  nonce: string,
  options: { cspHashes: CspHashes; analytics: boolean },
): [string, string][] {
  if (c.res.headers.has("Content-Security-Policy")) return [];
  if (!(c.res.headers.get("content-type") ?? "").includes("text/html")) return [["Content-Security-Policy", resourcePolicy]];
  const fromFile = (c.req.method === "GET" || c.req.method === "HEAD") && !c.req.url.includes("?");
  const prerendered = fromFile ? options.cspHashes.pages[c.req.path] : undefined;
  const policy = contentSecurityPolicy({
    ...(prerendered ? { scriptHashes: prerendered } : { nonce }),
    styleHashes: options.cspHashes.styles,
    analytics: options.analytics,
  });
  return [["Content-Security-Policy", policy]];
}

/**
 * Sets headers on the finished answer in place. `c.header()` after `next()` rebuilds the Response around its
 * body stream on every call, which cost a static page most of its time (decision 701); a Response with
 * immutable headers (Response.redirect) still goes that way.
 */
function setOnAnswer(c: Context, headers: [string, string][]) {
  try {
    for (const [name, value] of headers) c.res.headers.set(name, value);
  } catch {
    for (const [name, value] of headers) c.header(name, value);
  }
}

/** Hashed build assets never change; everything else is revalidated on each visit. */
export function cacheControlFor(path: string): string {
  return /\/assets\//.test(path) ? "public, max-age=31536000, immutable" : "public, max-age=0, must-revalidate";
}
