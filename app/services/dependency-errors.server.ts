/**
 * Telling errors apart: a dependency (PostgreSQL, SQLite's lock, Redis) that cannot be reached or did not
 * answer in time, and a unique key that was already taken. Driver errors are matched by their codes.
 */
const unavailableCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EPIPE",
  "SQLITE_BUSY",
  "SQLITE_LOCKED",
  // A full disk under DATA_DIR: 503 with Retry-After, not a 500 (docs/storage.md keeps uploads from causing it).
  "SQLITE_FULL",
  "ENOSPC",
  // PostgreSQL: admin shutdown, crash shutdown, cannot connect now, query canceled (statement timeout).
  "57P01",
  "57P02",
  "57P03",
  "57014",
]);

const unavailableMessages = [
  /timeout exceeded when trying to connect/i,
  /connection terminated/i,
  /query read timeout/i,
  /connection is closed/i,
  /command timed out/i,
  /stream isn't writeable/i,
  /reached the max retries per request/i,
  /client has encountered a connection error/i,
  /cannot use a pool after calling end/i,
];

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current && chain.length < 5) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

export function isDependencyUnavailable(error: unknown): boolean {
  return causes(error).some((entry) => {
    if (!entry || typeof entry !== "object") return false;
    const { code, message, name } = entry as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof code === "string" && (unavailableCodes.has(code) || code.startsWith("08"))) return true;
    if (name === "MaxRetriesPerRequestError") return true;
    return typeof message === "string" && unavailableMessages.some((pattern) => pattern.test(message));
  });
}

export function isUniqueViolation(error: unknown): boolean {
  return causes(error).some((entry) => {
    const code = (entry as { code?: unknown } | null)?.code;
    return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY";
  });
}

export const serviceUnavailableMessage = "服務暫時無法使用，請稍後再試。";

/** The answer while a dependency is away: JSON for programs, a short page for a browser's navigation. */
export function serviceUnavailableResponse(accept: string | null | undefined, code = "service-unavailable"): Response {
  const headers = { "Retry-After": "5", "Cache-Control": "no-store" };
  if (accept?.includes("text/html")) {
    const page = `<!doctype html><html lang="zh-Hant-TW"><meta charset="utf-8"><title>暫時無法使用</title><p>${serviceUnavailableMessage}</p></html>`;
    return new Response(page, { status: 503, headers: { ...headers, "Content-Type": "text/html; charset=utf-8" } });
  }
  return Response.json({ code, message: serviceUnavailableMessage }, { status: 503, headers });
}
