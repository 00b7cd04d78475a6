import { fixedWindowLimiter, type FixedWindow, type RateLimitStore } from "~/services/rate-limiter.server";

/**
 * Per user: what one parent plausibly does (a few wishes an hour, a burst of votes while reading the board).
 * Per IP: several times more, because a family or a school shares one address.
 */
export const wishRateLimits: Record<"wish" | "vote", { user: FixedWindow; ip: FixedWindow; message: string }> = {
  wish: { user: { max: 5, windowSeconds: 3600 }, ip: { max: 20, windowSeconds: 3600 }, message: "許願次數太多了" },
  vote: { user: { max: 60, windowSeconds: 600 }, ip: { max: 300, windowSeconds: 600 }, message: "投票次數太多了" },
};

/** Counts one attempt per user and per IP on the site's limiter; over either limit → the Chinese message, else null. */
export async function overRateLimit(store: RateLimitStore, kind: "wish" | "vote", userId: string, ip: string): Promise<string | null> {
  const rule = wishRateLimits[kind];
  const [user, address] = await Promise.all([
    fixedWindowLimiter(store, rule.user, `wishes:${kind}:user:`).hit(userId),
    fixedWindowLimiter(store, rule.ip, `wishes:${kind}:ip:`).hit(ip),
  ]);
  const waits = [user, address].filter((decision) => !decision.allowed).map((decision) => decision.retryAfterSeconds);
  if (!waits.length) return null;
  return `${rule.message}，請在 ${Math.max(1, Math.ceil(Math.max(...waits) / 60))} 分鐘後再試。`;
}
