import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { oauthPopup } from "better-auth/plugins";
import { appleSignIn } from "~/features/auth/apple.server";
import { socialWayIn } from "./social";
import type { WayInServer } from "~/features/auth/way-in-plugins.server";

/**
 * The social providers beyond Better Auth's own options (auth.server.ts): Sign in with Apple when its keys are set,
 * the pop-up sign-in, and on a loopback site without real providers the development identity provider.
 */
export const wayInServer: WayInServer = {
  unit: socialWayIn,
  plugins: ({ env, devIdentityProvider }) => ({
    plugins: [appleSignIn(env)],
    afterTwoStep: [
      oauthPopup(),
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
  }),
};
