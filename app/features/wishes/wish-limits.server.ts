import type { RateLimitStore } from "~/services/rate-limit-store.server";

interface Limit {
  max: number;
  windowSeconds: number;
}

/**
 * Per user: what one parent plausibly does (a few wishes an hour, a burst of votes while reading the board).
 * Per IP: several times more, because a family or a school shares one address.
 */
export const wishRateLimits: Record<"wish" | "vote", { user: Limit; ip: Limit; message: string }> = {
  wish: { user: { max: 5, windowSeconds: 3600 }, ip: { max: 20, windowSeconds: 3600 }, message: "許願次數太多了" },
  vote: { user: { max: 60, windowSeconds: 600 }, ip: { max: 300, windowSeconds: 600 }, message: "投票次數太多了" },
};

/** Counts one attempt per user and per IP; over either limit → the Chinese message to show, else null. */
export async function overRateLimit(store: RateLimitStore, kind: "wish" | "vote", userId: string, ip: string): Promise<string | null> {
  const rule = wishRateLimits[kind];
  const [user, address] = await Promise.all([
    store.hit(`wishes:${kind}:user:${userId}`, rule.user.windowSeconds),
    store.hit(`wishes:${kind}:ip:${ip}`, rule.ip.windowSeconds),
  ]);
  const over = [user.count > rule.user.max ? user.resetInSeconds : 0, address.count > rule.ip.max ? address.resetInSeconds : 0];
  const wait = Math.max(...over);
  if (!wait) return null;
  return `${rule.message}，請在 ${Math.max(1, Math.ceil(wait / 60))} 分鐘後再試。`;
}
