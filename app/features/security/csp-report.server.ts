import { clientIpHeader } from "~/services/client-ip.server";
import { readCappedBody } from "~/services/capped-body.server";
import { fixedWindowLimiter, sharedRateLimitStore, type RateLimiter } from "~/services/rate-limiter.server";
import { apiError, guardedEndpoint } from "~/services/request-guard.server";

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

let limiter: RateLimiter | undefined;

/**
 * POST /api/csp-report: browsers post violations here (report-uri and the Reporting API). Each is logged as one
 * line; bodies over 8 KB are refused, and each address may send 30 reports a minute. The request guard answers
 * other methods and other sites' posts, and every refusal is its JSON error.
 */
export const handleCspReport = guardedEndpoint({ methods: ["POST"] }, async (request) => {
  limiter ??= fixedWindowLimiter(sharedRateLimitStore(), { max: 30, windowSeconds: 60 }, "csp-report:");
  // The host puts the client address into this header; it is the rate-limit key.
  if (!(await limiter.hit(request.headers.get(clientIpHeader) ?? "unknown")).allowed) return apiError(429, "rate-limited", "回報次數過多，請稍後再試。");
  const raw = await readCappedBody(request, maxBytes);
  if (raw === null) return apiError(413, "too-large", "回報內容過大。");
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString("utf8"));
  } catch {
    return apiError(400, "invalid-json", "回報內容不是有效的 JSON。");
  }
  const reports = (Array.isArray(parsed) ? parsed : [parsed]).filter((entry): entry is Record<string, unknown> => Boolean(entry) && typeof entry === "object");
  for (const report of reports.slice(0, 10)) console.warn(JSON.stringify({ event: "csp-violation", ...summary(report) }));
  return new Response(null, { status: 204 });
});
