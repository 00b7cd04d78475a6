import type { Kysely } from "kysely";
import { getEnv } from "~/config/env.server";
import { getDatabase } from "~/db/db.server";
import type { Database } from "~/db/schema";
import { analyticsBatchSchema } from "./analytics-batch.server";
import { storeAnalyticsEvents } from "./analytics-store.server";
import { clientIpHeader } from "~/services/client-ip.server";
import { readCappedBody } from "~/services/capped-body.server";
import { apiError, guardedEndpoint } from "~/services/request-guard.server";
import { fixedWindowLimiter, sharedRateLimitStore, type RateLimiter } from "~/services/rate-limiter.server";

const MAX_BODY_BYTES = 16 * 1024;

const errors = {
  too_large: [413, "事件資料過大。"],
  invalid_json: [400, "事件資料不是有效的 JSON。"],
  invalid_events: [400, "事件名稱或參數不正確。"],
  rate_limited: [429, "傳送次數過多，請稍後再試。"],
} as const;

function failure(code: keyof typeof errors): Response {
  const [status, message] = errors[code];
  return apiError(status, code, message);
}

export interface AnalyticsEndpointDeps {
  db: Kysely<Database>;
  limiter: RateLimiter;
}

/**
 * POST /api/analytics: validates a batch of events and stores it. No cookie is read or set. The request guard
 * answers other methods and other sites' posts (the trusted-Origin rule).
 */
export function createAnalyticsHandler({ db, limiter }: AnalyticsEndpointDeps) {
  return guardedEndpoint({ methods: ["POST"] }, async (request) => {
    // The host puts the client address (never stored) into this header; it is the rate-limit key.
    if (!(await limiter.hit(request.headers.get(clientIpHeader) ?? "unknown")).allowed) return failure("rate_limited");

    const raw = await readCappedBody(request, MAX_BODY_BYTES);
    if (raw === null) return failure("too_large");
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      return failure("invalid_json");
    }
    const batch = analyticsBatchSchema.safeParse(body);
    if (!batch.success) return failure("invalid_events");

    const stored = await storeAnalyticsEvents(db, batch.data);
    return Response.json({ stored }, { status: 202, headers: { "Cache-Control": "no-store" } });
  });
}

let handler: ((request: Request) => Promise<Response>) | undefined;

/** The process-wide endpoint on the configured database and rate-limit store. */
export function handleAnalyticsRequest(request: Request): Promise<Response> {
  if (!handler) {
    const env = getEnv();
    handler = createAnalyticsHandler({
      db: getDatabase().db,
      // RATE_LIMIT_ANALYTICS_PER_IP: a visitor sends a beacon at most every few seconds; 60 a minute by default
      // leaves room for many tabs behind one NAT.
      limiter: fixedWindowLimiter(sharedRateLimitStore(), env.RATE_LIMIT_ANALYTICS_PER_IP, "analytics:"),
    });
  }
  return handler(request);
}
