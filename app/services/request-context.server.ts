import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What one request has met on its way, kept per request without passing it around: the errors of the
 * database, Redis and Better Auth. The host reads them once the answer is ready, to tell "a dependency is
 * away" (503) from a bug (500), and a duplicate key from other failures.
 */
export interface RequestContext {
  id: string;
  errors: unknown[];
  /** Aborted when the request's deadline passes (server/request-deadline.ts): work not yet begun is not begun. */
  deadline?: AbortSignal;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** Records an error against the current request (a no-op outside one, e.g. in the mail sender). */
export function noteRequestError(error: unknown): void {
  storage.getStore()?.errors.push(error);
}

/** The id the request log gives the current request (undefined outside one). */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.id;
}

export function currentRequestErrors(): readonly unknown[] {
  return storage.getStore()?.errors ?? [];
}

/** Throws the deadline's reason once the current request's deadline has passed (before opening a connection). */
export function throwIfPastDeadline(): void {
  storage.getStore()?.deadline?.throwIfAborted();
}

/** Whether the current request's deadline has passed (false outside a request, and without a deadline). */
export const pastDeadline = (): boolean => storage.getStore()?.deadline?.aborted === true;

/** Gives the current request its deadline signal. */
export function setRequestDeadline(signal: AbortSignal): void {
  const context = storage.getStore();
  if (context) context.deadline = signal;
}

/**
 * Runs `fn` free of the current request's deadline, its other context kept: work that must be done even for a
 * request answered 503 at its deadline, such as writing a security event (app/features/security-record).
 */
export function outsideDeadline<T>(fn: () => T): T {
  const context = storage.getStore();
  return context?.deadline ? storage.run({ ...context, deadline: undefined }, fn) : fn();
}

/**
 * A value kept for the current request alone, out of sight of every other request: `put` does nothing outside a
 * request, and `take` gives the value once.
 */
export function requestSlot<T>() {
  const values = new WeakMap<RequestContext, T>();
  return {
    put(value: T): void {
      const context = storage.getStore();
      if (context) values.set(context, value);
    },
    take(): T | undefined {
      const context = storage.getStore();
      const value = context && values.get(context);
      if (context) values.delete(context);
      return value;
    },
  };
}
