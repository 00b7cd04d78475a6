/**
 * The one error type of "a dependency cannot serve now" (PostgreSQL, SQLite, Redis, the disk, or the request's own
 * deadline passed while waiting for one). Each dependency's boundary wraps its transport failures in it, so the host
 * answers 503 with Retry-After by type, never by reading messages (app/services/dependency-errors.server.ts).
 */
export type Dependency = "postgres" | "sqlite" | "redis" | "disk" | "deadline";

/** `what` and, when known, the cause's own words (the log line then says why without unfolding the cause). */
export function unavailableBecause(what: string, cause: unknown): string {
  return cause instanceof Error && cause.message ? `${what}: ${cause.message}` : what;
}

export class DependencyUnavailableError extends Error {
  override name = "DependencyUnavailableError";
  readonly dependency: Dependency;
  constructor(dependency: Dependency, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.dependency = dependency;
  }
}
