import { lockedAccountMessage, messageForCode, tooManyTriesMessage, type AuthErrorCode } from "./auth-error-messages";
import { currentRequestErrors } from "~/services/request-context.server";
import { isUniqueViolation } from "~/services/dependency-errors.server";
import { sharedErrorCodes, type AuthEndpoint } from "./auth-endpoints";

function codeForStatus(status: number): AuthErrorCode {
  if (status === 429) return "auth/too-many-requests";
  if (status === 401) return "auth/no-current-user";
  if (status === 404) return "auth/not-found";
  if (status >= 500) return "auth/internal-error";
  return "auth/invalid-request";
}

/** Picks the catalogue code for an error answer from its Better Auth code, message and status, and its endpoint's row. */
export function catalogueCode(status: number, body: { code?: unknown; message?: unknown } | null, row?: AuthEndpoint): AuthErrorCode {
  const code = typeof body?.code === "string" ? body.code : "";
  // Body validation failures name the field ("[body.email] Invalid email address").
  if (code === "VALIDATION_ERROR" && /\[body\.email\]/.test(String(body?.message ?? ""))) return "auth/invalid-email";
  // Two sign-ups for one email at once (PostgreSQL): the second meets the unique key, not Better Auth's check.
  if (code === "FAILED_TO_CREATE_USER" && currentRequestErrors().some(isUniqueViolation)) return "auth/email-already-in-use";
  return row?.errors?.[code] ?? sharedErrorCodes[code] ?? codeForStatus(status);
}

export function jsonError(status: number, code: AuthErrorCode, message = messageForCode(code), headers?: HeadersInit) {
  const response = Response.json({ code, message }, { status, headers });
  return response;
}

/**
 * Every error answer of the auth API becomes `{ code, message }` with a catalogue code and a
 * Traditional-Chinese message; headers (Set-Cookie, X-Retry-After) are kept; stack traces never leave.
 */
export async function toCatalogueError(response: Response, row?: AuthEndpoint, supportEmail?: string): Promise<Response> {
  if (response.status < 400) return response;
  const type = response.headers.get("content-type") ?? "";
  const body = type.includes("json") ? ((await response.json().catch(() => null)) as Record<string, unknown> | null) : null;
  const code = catalogueCode(response.status, body, row);
  // The password policy's own message names the rules that were broken.
  const headers = new Headers(response.headers);
  const wait = Number(headers.get("retry-after") ?? headers.get("x-retry-after"));
  // A locked account is told where to write (SUPPORT_EMAIL); too many tries, how long to wait (重新傳送驗證碼 too soon).
  const message =
    body?.code === "WEAK_PASSWORD" && typeof body.message === "string"
      ? body.message
      : code === "auth/user-disabled" && supportEmail
        ? lockedAccountMessage(supportEmail)
        : code === "auth/too-many-requests" && Number.isFinite(wait) && wait > 0
          ? tooManyTriesMessage(Math.ceil(wait))
          : messageForCode(code);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.delete("content-length");
  // Better Auth names it X-Retry-After; clients and proxies know the standard one.
  const retryAfter = headers.get("x-retry-after");
  if (retryAfter && !headers.has("retry-after")) headers.set("retry-after", retryAfter);
  return new Response(JSON.stringify({ code, message }), { status: response.status, headers });
}
