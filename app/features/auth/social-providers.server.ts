import type { ServerEnv } from "~/config/env.server";
import type { SocialProvider } from "./auth-client";

type RealProvider = Exclude<SocialProvider, "dev">;

const scopes: Record<RealProvider, string[]> = {
  google: ["profile", "email"],
  line: ["openid", "profile", "email"],
  facebook: ["public_profile", "email"],
};

// Where each provider's sign-in starts (Better Auth's authorization addresses): a form that links a provider is
// redirected there, so the pages' form-action must allow it.
const authorizationOrigins: Record<RealProvider, string> = {
  google: "https://accounts.google.com",
  line: "https://access.line.me",
  facebook: "https://www.facebook.com",
};

/**
 * The one place that decides which social providers are on: each real provider whose id and secret are both
 * set (in the order the buttons show them). Better Auth's options, the development stand-in and the buttons all
 * read this.
 */
export function realSocialProviders(env: ServerEnv) {
  const keys: Record<RealProvider, [string | undefined, string | undefined]> = {
    google: [env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET],
    line: [env.LINE_CLIENT_ID, env.LINE_CLIENT_SECRET],
    facebook: [env.FACEBOOK_CLIENT_ID, env.FACEBOOK_CLIENT_SECRET],
  };
  return (Object.keys(keys) as RealProvider[]).flatMap((id) => {
    const [clientId, clientSecret] = keys[id];
    return clientId && clientSecret ? [{ id, clientId, clientSecret, scope: scopes[id] }] : [];
  });
}

/** The authorization origins of the providers that are on, as CSP sources. */
export function socialSignInOrigins(env: ServerEnv): string[] {
  return realSocialProviders(env).map((provider) => authorizationOrigins[provider.id]);
}

/** The sign-in buttons to show: the real providers, or on a development site the development provider. */
export function enabledSocialProviders(service: { env: ServerEnv; devIdentityProvider?: object }): SocialProvider[] {
  return [...realSocialProviders(service.env).map((provider) => provider.id), ...(service.devIdentityProvider ? (["dev"] as const) : [])];
}
