import type { MiddlewareHandler } from "hono";
import { countRequest } from "~/services/metrics.server";

/**
 * Counts every answer by route pattern, method and status, with its latency (Prometheus, METRICS_PORT). A pattern,
 * not the path: ids and slugs become `:id`, files under /assets are one route, and every 404 is one label, so a
 * scan of random paths cannot grow the series.
 */
export function requestMetrics(): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      countAnswer(c.req.path, c.req.method, c.res.status, started);
    }
  };
}

/** Counts one answer, `started` being when its request arrived (performance.now()). */
export function countAnswer(path: string, method: string, status: number, started: number): void {
  countRequest(routePattern(path, status), method, status, (performance.now() - started) / 1000);
}

const idLike = /\d|^[\w-]{20,}$|%/;

export function routePattern(path: string, status: number): string {
  if (status === 404) return "(not found)";
  // Redirects (a trailing slash, www.) and refused methods answer any path: one label each.
  if (status === 301 || status === 308) return "(redirect)";
  if (status === 405 || status === 501) return "(method refused)";
  if (path.startsWith("/assets/")) return "/assets/*";
  if (path.startsWith("/v0/b/")) return "/v0/b/*";
  const segments = path.split("/").filter(Boolean).slice(0, 4);
  return `/${segments.map((segment) => (idLike.test(segment) ? ":id" : segment)).join("/")}`;
}
