import { getEnv } from "~/config/env.server";
import { getDatabase } from "~/db/db.server";
import { getViewer, isEditor } from "~/features/auth/index.server";
import { clientIpHeader } from "~/services/client-ip.server";
import { sharedRateLimitStore } from "~/services/rate-limiter.server";
import { createWishService, type WishService, type WishViewer } from "./wish-service.server";
import { voterStanding, type VoterStanding } from "./wish-rules";

let service: WishService | undefined;

/** The process-wide wishing well on the configured database, rate-limit store and mail transport. */
export function getWishService(): WishService {
  if (!service) {
    const env = getEnv();
    service = createWishService({
      db: getDatabase().db,
      rateLimitStore: sharedRateLimitStore(),
      brand: { productName: env.PRODUCT_NAME, supportEmail: env.SUPPORT_EMAIL, siteUrl: env.SITE_URL },
    });
  }
  return service;
}

/**
 * The signed-in user behind a request (guests included) and whether they may vote, or null; a visitor without
 * cookies costs no query.
 */
export async function wishViewer(request: Request): Promise<(WishViewer & { standing: VoterStanding }) | null> {
  if (!request.headers.get("cookie")) return null;
  const user = await getViewer(request);
  return user ? { id: user.id, editor: isEditor(user), standing: voterStanding(user) } : null;
}

/** The client address the host put in its header (rate limits key on it). */
export const requestIp = (request: Request) => request.headers.get(clientIpHeader) ?? "unknown";
