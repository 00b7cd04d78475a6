/**
 * When the browser client tries again, as in the original §9: on 5xx, 408, 429 and network failures, waiting
 * a doubling number of seconds (1, 2, 4 … capped at 64) plus up to a second of random jitter, never longer than
 * the operation's deadline (120 s, 600 s for uploads). A server's Retry-After is honoured when it asks longer.
 */
export const maxOperationRetryMs = 120_000;
export const maxUploadRetryMs = 600_000;
const maxWaitSeconds = 64;

/** Status 0 is a request that never reached the server (offline, connection reset). */
export function isRetryableStatus(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || (status >= 500 && status < 600);
}

/** The wait before retry number `retry` (1 for the first retry), in milliseconds. */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const seconds = Math.min(2 ** (retry - 1), maxWaitSeconds);
  return Math.round((seconds + random()) * 1000);
}

/** Retry-After in seconds or as an HTTP date, in milliseconds from `now`; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
