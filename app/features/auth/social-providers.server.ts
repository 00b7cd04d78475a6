import type { AuthService } from "./auth-service.server";
import type { SocialProvider } from "./auth-types";

/** The sign-in buttons to show: each real provider with its keys set, or the development provider. */
export function configuredSocialProviders(service: AuthService): SocialProvider[] {
  const { env } = service;
  const providers: SocialProvider[] = [];
  if (env.GOOGLE_CLIENT_ID) providers.push("google");
  if (env.LINE_CLIENT_ID) providers.push("line");
  if (env.FACEBOOK_CLIENT_ID) providers.push("facebook");
  if (service.devIdentityProvider) providers.push("dev");
  return providers;
}
