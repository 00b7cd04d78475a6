import type { RateLimitStore } from "~/services/rate-limit-store.server";

export interface RateLimiter {
  /** Counts one request for `key`; false once the key is over its limit in the current window. */
  hit(key: string): Promise<boolean>;
}

export interface RateLimit {
  max: number;
  windowSeconds: number;
}

/** A fixed-window limit on the shared rate-limit store (memory, or Redis across instances). */
export function fixedWindowLimiter(store: RateLimitStore, { max, windowSeconds }: RateLimit, prefix = "analytics:"): RateLimiter {
  return {
    async hit(key) {
      const { count } = await store.hit(`${prefix}${key}`, windowSeconds);
      return count <= max;
    },
  };
}
