import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import { runWithRequestContext } from "~/services/request-context.server";
import { isDependencyUnavailable, serviceUnavailableResponse } from "~/services/dependency-errors.server";

const requestIdPattern = /^[\w.-]{1,64}$/;

/**
 * First and last around every request: gives it an id (kept from a proxy's X-Request-Id when sane), collects
 * the errors its dependencies raise, turns a failure caused by an unreachable dependency into 503, and writes
 * one log line: method, path (never the query, which may hold a token), status, duration. 5xx lines carry the
 * error with its stack; 4xx lines none.
 */
export function requestContext(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const given = c.req.header("x-request-id");
    const id = given && requestIdPattern.test(given) ? given : randomUUID();
    const context = { id, errors: [] as unknown[] };
    await runWithRequestContext(context, async () => {
      try {
        await next();
      } catch (error) {
        context.errors.push(error);
        c.res = new Response("伺服器發生錯誤，請稍後再試。", { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8" } });
      }
    });
    const cause = context.errors.find(isDependencyUnavailable);
    if (c.res.status >= 500 && cause) {
      const code = c.req.path.startsWith("/api/auth/") ? "auth/service-unavailable" : "service-unavailable";
      c.res = serviceUnavailableResponse(c.req.header("accept"), code);
    }
    c.header("X-Request-Id", id);
    const line = { requestId: id, method: c.req.method, path: c.req.path, status: c.res.status, durationMs: Math.round(performance.now() - started) };
    if (c.res.status === 503 && cause) logger.warn({ ...line, err: cause }, "dependency unavailable");
    else if (c.res.status >= 500) logger.error({ ...line, err: context.errors[0] ?? new Error("5xx without a recorded error") }, "request failed");
    else logger.info(line, "request");
  };
}
