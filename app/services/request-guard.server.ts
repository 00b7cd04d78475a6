import { getEnv } from "~/config/env.server";
import { noteRequestError } from "./request-context.server";
import { trustedOrigins } from "./trusted-origins.server";

/**
 * The one request guard of our own endpoints and form actions (not the protocol surfaces: Better Auth answers
 * its own, file storage keeps the Firebase shape on /v0/b):
 * - the trusted-Origin rule, one comparison for all: a request that names an Origin must name one of the site's
 *   trusted origins (the site, the app, the allowed hostnames — the list the sign-in layer trusts too). A request
 *   without one (a server, a script) passes; the session cookie is SameSite=Lax, so it carries no session across sites;
 * - one JSON error shape, `{ "error": { "code", "message" } }`, with a Traditional-Chinese message;
 * - an unexpected failure becomes that shape with 500, and its error is noted against the request, so the
 *   request log writes one line with the request id and the stack (never the client).
 */

export interface ApiErrorBody {
  error: { code: string; message: string };
}

const noStore = { "Cache-Control": "no-store" };

/** The one JSON error answer of our own endpoints. */
export function apiError(status: number, code: string, message: string, headers?: HeadersInit): Response {
  const merged = new Headers(noStore);
  for (const [name, value] of new Headers(headers)) merged.set(name, value);
  return Response.json({ error: { code, message } } satisfies ApiErrorBody, { status, headers: merged });
}

const originOf = (value: string): string | null => {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
};

let trusted: { siteUrl: string; origins: Set<string> } | undefined;

/** True when the request names an Origin that is not one of the site's trusted origins. */
export function isForeignOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  const env = getEnv();
  if (trusted?.siteUrl !== env.SITE_URL) {
    trusted = { siteUrl: env.SITE_URL, origins: new Set(trustedOrigins(env).map(originOf).filter((value): value is string => value !== null)) };
  }
  const named = originOf(origin);
  return named === null || !trusted.origins.has(named);
}

export const foreignOriginMessage = "只接受本網站送出的請求。";

export interface EndpointOptions {
  /** The methods the endpoint answers; any other gets 405 with `Allow`. */
  methods: readonly string[];
}

/**
 * Wraps a JSON endpoint in the guard: wrong method → 405, a write from a foreign Origin → 403, a thrown Response is
 * answered as it is, anything else thrown → 500 in the one shape (the request log writes its stack).
 */
export function guardedEndpoint(options: EndpointOptions, handler: (request: Request) => Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    if (!options.methods.includes(request.method)) {
      return apiError(405, "method-not-allowed", "這個網址不接受這個請求方法。", { Allow: options.methods.join(", ") });
    }
    if (request.method !== "GET" && request.method !== "HEAD" && isForeignOrigin(request)) return apiError(403, "foreign-origin", foreignOriginMessage);
    try {
      return await handler(request);
    } catch (error) {
      if (error instanceof Response) return error;
      noteRequestError(error);
      return apiError(500, "internal-error", "伺服器發生錯誤，請稍後再試。");
    }
  };
}
