import type { Context, MiddlewareHandler } from "hono";

/** Headers every answer carries; HSTS only where the site itself is served over https. */
export function securityHeaders(options: { https: boolean }): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const headers: [string, string][] = [
      ["X-Content-Type-Options", "nosniff"],
      ["Referrer-Policy", "strict-origin-when-cross-origin"],
      ["X-Frame-Options", "DENY"],
      ["Permissions-Policy", "camera=(), microphone=(), geolocation=()"],
    ];
    // A route may set its own (the sign-in pop-up's last page must keep its opener).
    if (!c.res.headers.has("Cross-Origin-Opener-Policy")) headers.push(["Cross-Origin-Opener-Policy", "same-origin-allow-popups"]);
    if (options.https) headers.push(["Strict-Transport-Security", "max-age=31536000; includeSubDomains"]);
    setOnAnswer(c, headers);
  };
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
