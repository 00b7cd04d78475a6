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
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "strict-origin-when-cross-origin");
    c.header("X-Frame-Options", "DENY");
    c.header("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    c.header("Cross-Origin-Resource-Policy", "same-origin");
    c.header("Reporting-Endpoints", 'csp="/api/csp-report"');
    // A route may set its own (the sign-in pop-up's last page must keep its opener).
    if (!c.res.headers.has("Cross-Origin-Opener-Policy")) c.header("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
    if (options.https) c.header("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
    // A route may set its own CSP too (Better Auth's pop-up completion page, the development sign-in page).
    if (c.res.headers.has("Content-Security-Policy")) return;
    if (!(c.res.headers.get("content-type") ?? "").includes("text/html")) {
      c.header("Content-Security-Policy", resourcePolicy);
      return;
    }
    // A GET of a prerendered path was answered from its file; anything else (a POST to it reaches the route
    // action) was rendered now, with this answer's nonce.
    const method = c.req.method;
    const prerendered = (method === "GET" || method === "HEAD") ? options.cspHashes.pages[c.req.path] : undefined;
    c.header(
      "Content-Security-Policy",
      contentSecurityPolicy({
        ...(prerendered ? { scriptHashes: prerendered } : { nonce }),
        styleHashes: options.cspHashes.styles,
        analytics: options.analytics,
      }),
    );
  };
}

/** Hashed build assets never change; everything else is revalidated on each visit. */
export function cacheControlFor(path: string): string {
  return /\/assets\//.test(path) ? "public, max-age=31536000, immutable" : "public, max-age=0, must-revalidate";
}
