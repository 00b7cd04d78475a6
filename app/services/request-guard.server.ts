import { data } from "react-router";
import { getEnv, type ServerEnv } from "~/config/env.server";
import type { FormResult } from "~/lib/form-result";
import { noteRequestError } from "./request-context.server";
import { trustedOrigins } from "./trusted-origins.server";

/**
 * The one request guard of our own endpoints and form actions; file storage takes its Origin rule and its failure
 * rule but keeps the Firebase shape on /v0/b, and Better Auth answers its own:
 * - the trusted-Origin rule, one comparison for all: a request that names an Origin must name one of the site's
 *   trusted origins (the site, the app, the allowed hostnames — the list the sign-in layer trusts too). A request
 *   without one (a server, a script) passes; the session cookie is SameSite=Lax, so it carries no session across sites;
 * - the viewer: an endpoint names how it asks for one (`requireUser`, `requireRole` of the viewer, or a lookup that
 *   lets a visitor in), and a refusal (401 signed out, 403 without the role) is answered like every other;
 * - one JSON error shape, `{ "error": { "code", "message" } }`, with a Traditional-Chinese message, and for a form
 *   action the form kit's result shape (`formError`, `code`) that its screen shows;
 * - an unexpected failure becomes a 500 in the caller's shape, and its error is noted against the request, so the
 *   request log writes one line with the request id and the stack (never the client).
 */

export interface ApiErrorBody {
  error: { code: string; message: string };
}

/** How a caller answers an error: our endpoints with `apiError`, file storage in the Firebase shape. */
export type ErrorAnswer = (status: number, code: string, message: string) => Response;

const noStore = { "Cache-Control": "no-store" };

/** The one JSON error answer of our own endpoints. */
export function apiError(status: number, code: string, message: string, headers?: HeadersInit): Response {
  const merged = new Headers(noStore);
  for (const [name, value] of new Headers(headers)) merged.set(name, value);
  return Response.json({ error: { code, message } } satisfies ApiErrorBody, { status, headers: merged });
}

/**
 * A request refused for a reason the client can fix or must be told (signed out, not allowed, too many): thrown by
 * the viewer and by handlers, answered by the guard with its status in the caller's shape.
 */
export class RequestRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The guard's rule for a failure nobody expected: noted for the request log (request id, stack), a 500 in the caller's shape. */
export function unexpectedFailure(error: unknown, answer: ErrorAnswer = apiError): Response {
  noteRequestError(error);
  return answer(500, "internal-error", "伺服器發生錯誤，請稍後再試。");
}

const originOf = (value: string): string | null => {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
};

/** The trusted-Origin rule for one configuration (file storage's, built at its start; the guard's own below). */
export function originRule(env: ServerEnv) {
  const trusted = new Set(trustedOrigins(env).map(originOf).filter((value): value is string => value !== null));
  const isTrusted = (request: Request): boolean => {
    const origin = request.headers.get("origin");
    return origin !== null && trusted.has(originOf(origin) ?? "");
  };
  return {
    /** The request names one of the trusted origins (what a session cookie needs to change stored files). */
    isTrusted,
    /** The request names an Origin that is not one of them. */
    isForeign: (request: Request): boolean => request.headers.has("origin") && !isTrusted(request),
  };
}

let processRule: { env: ServerEnv; rule: ReturnType<typeof originRule> } | undefined;

/** True when the request names an Origin that is not one of the site's trusted origins (this process's configuration). */
function isForeignOrigin(request: Request): boolean {
  const env = getEnv();
  if (processRule?.env !== env) processRule = { env, rule: originRule(env) };
  return processRule.rule.isForeign(request);
}

const foreignOriginMessage = "只接受本網站送出的請求。";

export interface EndpointOptions<Viewer> {
  /** The methods the endpoint answers; any other gets 405 with `Allow`. */
  methods: readonly string[];
  /** How the endpoint asks for the viewer (`requireUser`, `(request) => requireRole(request, "editor")`, …). */
  viewer?: (request: Request) => Promise<Viewer>;
}

/**
 * Wraps a JSON endpoint in the guard: wrong method → 405, a write from a foreign Origin → 403, then the viewer; a
 * thrown RequestRefused is answered with its status, a thrown Response as it is, anything else → 500 in the one shape
 * (the request log writes its stack).
 */
export function guardedEndpoint<Viewer = undefined>(options: EndpointOptions<Viewer>, handler: (request: Request, viewer: Viewer) => Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    if (!options.methods.includes(request.method)) {
      return apiError(405, "method-not-allowed", "這個網址不接受這個請求方法。", { Allow: options.methods.join(", ") });
    }
    if (request.method !== "GET" && request.method !== "HEAD" && isForeignOrigin(request)) return apiError(403, "foreign-origin", foreignOriginMessage);
    try {
      const viewer = options.viewer ? await options.viewer(request) : (undefined as Viewer);
      return await handler(request, viewer);
    } catch (error) {
      if (error instanceof Response) return error;
      if (error instanceof RequestRefused) return apiError(error.status, error.code, error.message);
      return unexpectedFailure(error);
    }
  };
}

/** A form action's refusal in the form kit's result shape, for its screen to show. */
export const formRefusal = (status: number, code: string, formError: string, result: FormResult = {}) =>
  data<FormResult>({ ...result, code, formError }, { status });

/**
 * Runs a form action under the guard: a post from a foreign Origin → 403 and a thrown RequestRefused (the viewer's
 * 401/403) → its status, both in the form kit's result shape. Redirects and the form kit's own answers, thrown as
 * Responses, pass on to React Router; an unexpected failure goes to the route's error boundary and the request log.
 */
export async function guardedForm<Result>(request: Request, action: () => Promise<Result>) {
  if (isForeignOrigin(request)) return formRefusal(403, "foreign-origin", "只接受本網站送出的表單。");
  try {
    return await action();
  } catch (error) {
    if (error instanceof RequestRefused) return formRefusal(error.status, error.code, error.message);
    throw error;
  }
}
