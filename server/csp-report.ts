import { Hono, type Context } from "hono";
import { fixedWindowLimiter, type RateLimitStore } from "~/services/rate-limiter.server";
import { cspReportPath } from "~/features/security/csp.server";

const maxBytes = 8 * 1024;

/** Keeps what tells where a violation happened and why; never the query (it could carry a token). */
function summary(report: Record<string, unknown>) {
  const body = (report["csp-report"] ?? report.body ?? report) as Record<string, unknown>;
  const pick = (...names: string[]) => names.map((name) => body[name]).find((value) => typeof value === "string") as string | undefined;
  const withoutQuery = (value: string | undefined) => value?.replace(/[?#].*$/, "");
  return {
    document: withoutQuery(pick("document-uri", "documentURL")),
    directive: pick("effective-directive", "effectiveDirective", "violated-directive"),
    blocked: withoutQuery(pick("blocked-uri", "blockedURL")),
    source: withoutQuery(pick("source-file", "sourceFile")),
    line: body["line-number"] ?? body.lineNumber,
  };
}

/**
 * The CSP report endpoint: browsers post violations here (report-uri and the Reporting API). Each is logged as one
 * line; bodies over 8 KB are refused, and each address may send 30 reports a minute.
 */
export function cspReportRoutes(store: RateLimitStore, clientIp: (c: Context) => string) {
  const limiter = fixedWindowLimiter(store, { max: 30, windowSeconds: 60 }, "csp-report:");
  const routes = new Hono();
  routes.post(cspReportPath, async (c) => {
    if (!(await limiter.hit(clientIp(c))).allowed) return c.body(null, 429);
    const declared = Number(c.req.header("content-length") ?? 0);
    if (declared > maxBytes) return c.body(null, 413);
    const text = await c.req.text();
    if (text.length > maxBytes) return c.body(null, 413);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return c.body(null, 400);
    }
    const reports = (Array.isArray(parsed) ? parsed : [parsed]).filter((entry): entry is Record<string, unknown> => Boolean(entry) && typeof entry === "object");
    for (const report of reports.slice(0, 10)) console.warn(JSON.stringify({ event: "csp-violation", ...summary(report) }));
    return c.body(null, 204);
  });
  return routes;
}
