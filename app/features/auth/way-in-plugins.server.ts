import type { BetterAuthPlugin } from "better-auth";
import { anonymous } from "better-auth/plugins/anonymous";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { oauthPopup } from "better-auth/plugins";
import { enqueueMail } from "~/features/mail/outbox.server";
import { emailLinkSignInEmail } from "~/features/mail/mail-templates.server";
import type { AuthDependencies } from "./auth.server";
import { waysIn } from "./auth-endpoints";
import { guestUpgrade } from "./way-in-guest.server";
import { emailLinkSignIn } from "./way-in-email-link.server";
import { passkeys } from "./way-in-passkey.server";
import { phoneSignIn } from "./way-in-phone.server";
import { endUnprovenAccess } from "./unproven-access.server";
import { moveUserData } from "./user-data-hooks.server";
import { appleSignIn } from "./apple.server";

/**
 * The server half of each way in (way-in-*.ts): its Better Auth plugins, under the unit's id, so a unit without
 * its entry (or an entry without its unit) fails typecheck. auth.server.ts registers them in the order of the
 * units: `plugins` before two-step sign-in (which turns a one-factor sign-in into a pending code), `afterTwoStep`
 * after it (the pop-up plugin answers its opener from the callback's final redirect).
 */
type WayInId = (typeof waysIn)[number]["id"];
export interface WayInPlugins {
  plugins: BetterAuthPlugin[];
  afterTwoStep?: BetterAuthPlugin[];
  /** Its plugins' endpoints the site switches off (Better Auth's disabledPaths); their rows stay in the unit. */
  switchedOff?: string[];
}
/** One entry per way in, no more, no fewer. */
export type WayInPluginTable = Record<WayInId, WayInPlugins>;

/** A guest's name until it signs up. */
const guestDisplayName = "訪客";

function pluginsByWayIn(deps: AuthDependencies): WayInPluginTable {
  const { env, database, rateLimitStore, devIdentityProvider } = deps;
  const brand = { productName: env.PRODUCT_NAME, supportEmail: env.SUPPORT_EMAIL };
  return {
    // Better Auth's core (emailAndPassword in auth.server.ts).
    password: { plugins: [] },
    social: {
      // Sign in with Apple when its keys are set (the other providers are Better Auth's own options).
      plugins: [appleSignIn(env)],
      afterTwoStep: [
        oauthPopup(),
        // The development identity provider, on a loopback site without real providers.
        ...(devIdentityProvider
          ? [
              genericOAuth({
                config: [
                  {
                    providerId: "dev",
                    discoveryUrl: devIdentityProvider.discoveryUrl,
                    clientId: devIdentityProvider.clientId,
                    clientSecret: devIdentityProvider.clientSecret,
                    scopes: ["openid", "profile", "email"],
                    pkce: true,
                  },
                ],
              }),
            ]
          : []),
      ],
    },
    guest: {
      plugins: [
        anonymous({
          generateName: () => guestDisplayName,
          emailDomainName: "guest.invalid",
          onLinkAccount: async ({ anonymousUser, newUser }) => moveUserData(database.db, anonymousUser.user.id, newUser.user.id),
        }),
        guestUpgrade(),
      ],
    },
    "email-link": {
      plugins: [
        emailLinkSignIn(env.SITE_URL, {
          send: async (to, link) => void (await enqueueMail(database.db, emailLinkSignInEmail(brand, to.email, link))),
          // The link proves the address: on an unverified account nothing set before it stays.
          proved: (ctx, user) => endUnprovenAccess(ctx.context, database.db, env, user),
        }),
      ],
    },
    passkey: { plugins: [passkeys(database, env)] },
    phone: phoneSignIn(database, env, rateLimitStore),
  };
}

/** Every way in's plugins, in the units' order, for the two places of auth.server.ts's list, and what they switch off. */
export function wayInPlugins(deps: AuthDependencies): Required<WayInPlugins> {
  const byWayIn = pluginsByWayIn(deps);
  return {
    plugins: waysIn.flatMap((unit) => byWayIn[unit.id].plugins),
    afterTwoStep: waysIn.flatMap((unit) => byWayIn[unit.id].afterTwoStep ?? []),
    switchedOff: waysIn.flatMap((unit) => byWayIn[unit.id].switchedOff ?? []),
  };
}
