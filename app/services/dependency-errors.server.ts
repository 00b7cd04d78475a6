/**
 * Telling errors apart: a dependency (PostgreSQL, SQLite's lock, Redis, the disk) that cannot be reached or did not
 * answer in time, and a unique key that was already taken. Errors are told apart by type, never by message text:
 * our own `DependencyUnavailableError` (each dependency's boundary wraps its transport failures in it), and the
 * codes drivers and the system put on theirs (SQLSTATE, SQLite result codes, errno names).
 */
import { DependencyUnavailableError } from "~/lib/dependency-unavailable";
import { currentRequestErrors } from "./request-context.server";

export { DependencyUnavailableError, type Dependency } from "~/lib/dependency-unavailable";

/** System errors of a socket or a disk (errno names). */
const systemCodes = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE", "ENOSPC", "EDQUOT"]);

/**
 * PostgreSQL's SQLSTATE codes for "not now": admin shutdown, crash shutdown, cannot connect now, query canceled
 * (statement timeout), and the classes 08 (connection exception) and 53 (insufficient resources: disk full, out of
 * memory, too many connections).
 */
const postgresCodes = new Set(["57P01", "57P02", "57P03", "57014"]);
const postgresClasses = ["08", "53"];

/** SQLite's result codes (extended ones start with these): another writer holds the lock, a full disk, an I/O error. */
const sqlitePrefixes = ["SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_FULL", "SQLITE_IOERR"];

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current && chain.length < 5) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function hasUnavailableCode(code: string): boolean {
  if (systemCodes.has(code) || postgresCodes.has(code)) return true;
  if (/^[0-9A-Z]{5}$/.test(code) && postgresClasses.includes(code.slice(0, 2))) return true;
  return sqlitePrefixes.some((prefix) => code.startsWith(prefix));
}

export function isDependencyUnavailable(error: unknown): boolean {
  return causes(error).some((entry) => {
    if (entry instanceof DependencyUnavailableError) return true;
    const code = (entry as { code?: unknown } | null)?.code;
    return typeof code === "string" && hasUnavailableCode(code);
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

/**
 * Runs `work` and, when its result is only what a caller falls back to (no session, an error answer) while a
 * dependency failed during it (noted against the request), throws that failure instead: a session that could not
 * be read is a 503, never "signed out" (Better Auth turns a failed session lookup into "no session").
 */
export async function unlessDependencyFailed<T>(work: () => Promise<T>, isFallback: (result: T) => boolean): Promise<T> {
  const before = currentRequestErrors().length;
  const result = await work();
  if (!isFallback(result)) return result;
  const failure = currentRequestErrors().slice(before).find(isDependencyUnavailable);
  if (failure) throw failure;
  return result;
}
