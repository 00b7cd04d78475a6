import { messageForCode, type AuthErrorCode } from "./auth-errors";
import { currentRequestErrors } from "~/services/request-context.server";
import { isUniqueViolation } from "~/services/dependency-errors.server";

/** Better Auth's error codes (and ours from the plugins) onto the catalogue of the original §8. */
const codeMap: Record<string, AuthErrorCode> = {
  INVALID_EMAIL_OR_PASSWORD: "auth/invalid-credential",
  INVALID_PASSWORD: "auth/invalid-credential",
  USER_NOT_FOUND: "auth/invalid-credential",
  CREDENTIAL_ACCOUNT_NOT_FOUND: "auth/invalid-credential",
  EMAIL_NOT_VERIFIED: "email-not-verified",
  USER_ALREADY_EXISTS: "auth/email-already-in-use",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "auth/email-already-in-use",
  PASSWORD_TOO_SHORT: "auth/weak-password",
  PASSWORD_TOO_LONG: "auth/weak-password",
  WEAK_PASSWORD: "auth/weak-password",
  INVALID_EMAIL: "auth/invalid-email",
  INVALID_TOKEN: "auth/invalid-action-code",
  TOKEN_EXPIRED: "auth/invalid-action-code",
  INVALID_ORIGIN: "auth/unauthorized-domain",
  MISSING_OR_NULL_ORIGIN: "auth/unauthorized-domain",
  INVALID_CALLBACK_URL: "auth/unauthorized-continue-uri",
  INVALID_REDIRECT_URL: "auth/unauthorized-continue-uri",
  INVALID_ERROR_CALLBACK_URL: "auth/unauthorized-continue-uri",
  INVALID_NEW_USER_CALLBACK_URL: "auth/unauthorized-continue-uri",
  TOO_MANY_REQUESTS: "auth/too-many-requests",
  SESSION_EXPIRED: "auth/requires-recent-login",
  EMAIL_ALREADY_VERIFIED: "auth/email-already-verified",
  EMAIL_MISMATCH: "auth/operation-not-allowed",
  NOT_ANONYMOUS: "auth/not-anonymous",
  ANONYMOUS_USERS_CANNOT_SIGN_IN_AGAIN_ANONYMOUSLY: "auth/operation-not-allowed",
  PASSWORD_REQUIRED: "auth/missing-password",
  DISPLAY_NAME_TOO_LONG: "auth/display-name-too-long",
  ACCOUNT_NOT_LINKED: "auth/account-exists-with-different-credential",
  LINKING_DIFFERENT_EMAILS_NOT_ALLOWED: "auth/account-exists-with-different-credential",
  VALIDATION_ERROR: "auth/invalid-request",
  OPERATION_NOT_ALLOWED: "auth/operation-not-allowed",
  INVALID_CODE: "auth/invalid-verification-code",
  CODE_ALREADY_USED: "auth/code-already-used",
  INVALID_BACKUP_CODE: "auth/invalid-backup-code",
  INVALID_TWO_FACTOR_COOKIE: "auth/two-step-expired",
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: "auth/too-many-requests",
  ACCOUNT_TEMPORARILY_LOCKED: "auth/too-many-requests",
  TOTP_ALREADY_ENABLED: "auth/two-step-already-on",
  TOTP_NOT_ENABLED: "auth/two-step-off",
  TWO_FACTOR_NOT_ENABLED: "auth/two-step-off",
  INVALID_PASSKEY: "auth/invalid-passkey",
  PASSKEY_NOT_FOUND: "auth/passkey-not-found",
};

function codeForStatus(status: number): AuthErrorCode {
  if (status === 429) return "auth/too-many-requests";
  if (status === 401) return "auth/no-current-user";
  if (status === 404) return "auth/not-found";
  if (status >= 500) return "auth/internal-error";
  return "auth/invalid-request";
}

/** Picks the catalogue code for an error answer from its Better Auth code, message and status. */
export function catalogueCode(status: number, body: { code?: unknown; message?: unknown } | null): AuthErrorCode {
  const code = typeof body?.code === "string" ? body.code : "";
  // Body validation failures name the field ("[body.email] Invalid email address").
  if (code === "VALIDATION_ERROR" && /\[body\.email\]/.test(String(body?.message ?? ""))) return "auth/invalid-email";
  // Two sign-ups for one email at once (PostgreSQL): the second meets the unique key, not Better Auth's check.
  if (code === "FAILED_TO_CREATE_USER" && currentRequestErrors().some(isUniqueViolation)) return "auth/email-already-in-use";
  return codeMap[code] ?? codeForStatus(status);
}

export function jsonError(status: number, code: AuthErrorCode, message = messageForCode(code), headers?: HeadersInit) {
  const response = Response.json({ code, message }, { status, headers });
  return response;
}

/**
 * Every error answer of the auth API becomes `{ code, message }` with a catalogue code and a
 * Traditional-Chinese message; headers (Set-Cookie, X-Retry-After) are kept; stack traces never leave.
 */
export async function toCatalogueError(response: Response): Promise<Response> {
  if (response.status < 400) return response;
  const type = response.headers.get("content-type") ?? "";
  const body = type.includes("json") ? ((await response.json().catch(() => null)) as Record<string, unknown> | null) : null;
  const code = catalogueCode(response.status, body);
  // The password policy's own message names the rules that were broken.
  const message =
    body?.code === "WEAK_PASSWORD" && typeof body.message === "string" ? body.message : messageForCode(code);
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.delete("content-length");
  // Better Auth names it X-Retry-After; clients and proxies know the standard one.
  const retryAfter = headers.get("x-retry-after");
  if (retryAfter && !headers.has("retry-after")) headers.set("retry-after", retryAfter);
  return new Response(JSON.stringify({ code, message }), { status: response.status, headers });
}
