import { z } from "zod";
import { getEnv } from "~/config/env.server";
import { getDatabase } from "~/db/db.server";
import { straightReader } from "~/db/straight-read.server";
import { getViewer, isEditor } from "~/features/auth/index.server";
import { templateUserOf, templateVariantOf } from "~/features/shell/signed-in-pages.server";
import { clientIpHeader } from "~/services/client-ip.server";
import { sharedRateLimitStore } from "~/services/rate-limiter.server";
import { createWishService, type TemplateMarks, type WishService, type WishViewer } from "./wish-service.server";
import { voterStanding, type VoterStanding } from "./wish-rules";

let service: WishService | undefined;

/** The process-wide wishing well on the configured database, rate-limit store and mail transport. */
export function getWishService(): WishService {
  if (!service) {
    const env = getEnv();
    service = createWishService({
      db: getDatabase().db,
      readStraight: straightReader(getDatabase()),
      rateLimitStore: sharedRateLimitStore(),
      brand: { productName: env.PRODUCT_NAME, supportEmail: env.SUPPORT_EMAIL, siteUrl: env.SITE_URL },
    });
  }
  return service;
}

const templateMarks = z.object({ voted: z.array(z.string()), own: z.array(z.string()), load: z.number() });

/**
 * The signed-in user behind a request (guests included) and whether they may vote, or null; a visitor without
 * cookies costs no query. The host's template of a signed-in parent's board (decision 713) is rendered for a user
 * of markers, with the marks its variant names.
 */
export async function wishViewer(request: Request): Promise<(WishViewer & { standing: VoterStanding; template?: TemplateMarks }) | null> {
  const templateUser = templateUserOf(request);
  if (templateUser) {
    // The board shows the team nothing of its own, so a template serves editors too.
    const standing = voterStanding({ isAnonymous: Boolean(templateUser.isAnonymous), emailVerified: templateUser.emailVerified });
    return { id: templateUser.uid, editor: false, standing, template: templateMarks.parse(JSON.parse(templateVariantOf(request) ?? "")) };
  }
  if (!request.headers.get("cookie")) return null;
  const user = await getViewer(request);
  return user ? { id: user.id, editor: isEditor(user), standing: voterStanding(user) } : null;
}

/** The client address the host put in its header (rate limits key on it). */
export const requestIp = (request: Request) => request.headers.get(clientIpHeader) ?? "unknown";
