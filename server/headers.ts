import type { MiddlewareHandler } from "hono";

/** Headers every answer carries; HSTS only where the site itself is served over https. */
export function securityHeaders(options: { https: boolean }): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "strict-origin-when-cross-origin");
    c.header("X-Frame-Options", "DENY");
    c.header("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    // A route may set its own (the sign-in pop-up's last page must keep its opener).
    if (!c.res.headers.has("Cross-Origin-Opener-Policy")) c.header("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
    if (options.https) c.header("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  };
}

/** Hashed build assets never change; everything else is revalidated on each visit. */
export function cacheControlFor(path: string): string {
  return /\/assets\//.test(path) ? "public, max-age=31536000, immutable" : "public, max-age=0, must-revalidate";
}
