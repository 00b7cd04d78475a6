import { randomUUID } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import { runWithRequestContext } from "~/services/request-context.server";
import { isDependencyUnavailable, serviceUnavailableResponse } from "~/services/dependency-errors.server";
import { isFinishedAnswer, setOnAnswer } from "./headers";

const requestIdPattern = /^[\w.-]{1,64}$/;

/** The request's id: the one a proxy gave (X-Request-Id) when sane, else a new one. */
export const requestIdFrom = (given: string | undefined) => (given && requestIdPattern.test(given) ? given : randomUUID());

/** The fields of an ordinary answer's log line (never the query, which may hold a token). */
export interface AnswerLine {
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
}

/**
 * Writes an ordinary answer's line. It holds only the fields above, none of them a redacted one, so it skips pino's
 * redaction pass (a tenth of a static file's cost); lines that carry an error keep it.
 */
export function answerLog(logger: Logger): (line: AnswerLine) => void {
  const plain = logger.child({}, { redact: { paths: [] } });
  return (line) => plain.info(line, "request");
}

/**
 * First and last around every request: gives it an id (kept from a proxy's X-Request-Id when sane), collects
 * the errors its dependencies raise, turns a failure caused by an unreachable dependency into 503, and writes
 * one log line: method, path (never the query, which may hold a token), status, duration. 5xx lines carry the
 * error with its stack; 4xx lines none; a request its client abandoned is said to be so, without a status.
 */
export function requestContext(logger: Logger): MiddlewareHandler {
  const logAnswer = answerLog(logger);
  return async (c, next) => {
    const started = performance.now();
    const id = requestIdFrom(c.req.header("x-request-id"));
    const context = { id, errors: [] as unknown[] };
    await runWithRequestContext(context, async () => {
      try {
        await next();
      } catch (error) {
        context.errors.push(error);
        replaceAnswer(c, new Response("伺服器發生錯誤，請稍後再試。", { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8" } }));
      }
    });
    const request = { requestId: id, method: c.req.method, path: c.req.path };
    // A client that hung up (mid-body, say) gets no answer, and what failed after is its doing, not a dependency's
    // or ours: no 5xx, no stack.
    if (c.req.raw.signal.aborted) {
      logger.info({ ...request, durationMs: Math.round(performance.now() - started) }, "request aborted by the client");
      return;
    }
    const cause = context.errors.find(isDependencyUnavailable);
    // An answer written straight to Node's response (oidc-provider) is gone already; the provider makes its own 503.
    // A 401 while the session store could not be read is the outage's answer too: never "signed out".
    if ((c.res.status >= 500 || c.res.status === 401) && cause && !c.res.headers.has("x-hono-already-sent")) {
      const code = c.req.path.startsWith("/api/auth/") ? "auth/service-unavailable" : "service-unavailable";
      replaceAnswer(c, serviceUnavailableResponse(c.req.header("accept"), code));
    }
    // An answer written straight to Node's response (oidc-provider) is gone already; rebuilding it to add a header
    // would make the Node server write a second answer. A file of the build carries the id already.
    if (!isFinishedAnswer(c.res) && !c.res.headers.has("x-hono-already-sent")) setOnAnswer(c, [["X-Request-Id", id]]);
    const line = { ...request, status: c.res.status, durationMs: Math.round(performance.now() - started) };
    if (c.res.status === 503 && cause) logger.warn({ ...line, err: cause }, "dependency unavailable");
    // 501 is the answer to a method the site does not implement (RFC 9110): the client's choice, not a failure.
    else if (c.res.status >= 500 && c.res.status !== 501) logger.error({ ...line, err: context.errors[0] ?? new Error("5xx without a recorded error") }, "request failed");
    else logAnswer(line);
  };
}

/** Headers that describe the old body (its encoding, length, type, version), which a replacement must not inherit. */
const representationHeaders = new Set(["content-encoding", "content-length", "content-type", "content-language", "content-range", "content-disposition", "etag", "last-modified", "vary"]);

/**
 * Puts `replacement` in place of the answer so far, keeping the old answer's other headers (security headers,
 * cookies) where the replacement has none of its own. Hono's `c.res = …` copies every old header onto the new
 * answer, so a 503 that replaced a gzipped page kept `Content-Encoding: gzip` and the old `Content-Length`.
 */
function replaceAnswer(c: Context, replacement: Response) {
  const headers = new Headers(replacement.headers);
  const previous = c.res as Response | undefined;
  if (previous) {
    for (const [name, value] of previous.headers) {
      if (representationHeaders.has(name)) continue;
      if (name === "set-cookie") headers.append(name, value);
      else if (!headers.has(name)) headers.set(name, value);
    }
  }
  c.res = undefined;
  c.res = new Response(replacement.body, { status: replacement.status, headers });
}
