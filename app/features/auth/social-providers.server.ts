import type { ServerEnv } from "~/config/env.server";
import type { SocialProvider } from "./auth-client";

type RealProvider = Exclude<SocialProvider, "dev">;

const scopes: Record<RealProvider, string[]> = {
  // Apple's own: it sends the name (first sign-in only) and the address, nothing else exists.
  apple: ["name", "email"],
  google: ["profile", "email"],
  line: ["openid", "profile", "email"],
  facebook: ["public_profile", "email"],
};

// Where each provider's sign-in starts (Better Auth's authorization addresses): a form that links a provider is
// redirected there, so the pages' form-action must allow it.
const authorizationOrigins: Record<RealProvider, (env: ServerEnv) => string> = {
  apple: (env) => new URL(env.APPLE_URL).origin,
  google: () => "https://accounts.google.com",
  line: () => "https://access.line.me",
  facebook: () => "https://www.facebook.com",
};

/**
 * The one place that decides which social providers are on: each real provider whose keys are all set (in the
 * order the buttons show them; Apple first, as its rules ask for a button at least as prominent as the others).
 * Better Auth's options, the development stand-in and the buttons all read this. Apple has no fixed secret:
 * apple.server.ts signs one with its key (`clientSecret` is undefined here).
 */
export function realSocialProviders(env: ServerEnv) {
  const keys: Record<RealProvider, [string | undefined, string | undefined]> = {
    apple: [env.APPLE_CLIENT_ID, env.APPLE_PRIVATE_KEY],
    google: [env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET],
    line: [env.LINE_CLIENT_ID, env.LINE_CLIENT_SECRET],
    facebook: [env.FACEBOOK_CLIENT_ID, env.FACEBOOK_CLIENT_SECRET],
  };
  return (Object.keys(keys) as RealProvider[]).flatMap((id) => {
    const [clientId, secret] = keys[id];
    return clientId && secret ? [{ id, clientId, clientSecret: id === "apple" ? undefined : secret, scope: scopes[id] }] : [];
  });
}

/** The authorization origins of the providers that are on, as CSP sources. */
export function socialSignInOrigins(env: ServerEnv): string[] {
  return realSocialProviders(env).map((provider) => authorizationOrigins[provider.id](env));
}

/** The sign-in buttons to show: the real providers, or on a development site the development provider. */
export function enabledSocialProviders(service: { env: ServerEnv; devIdentityProvider?: object }): SocialProvider[] {
  return [...realSocialProviders(service.env).map((provider) => provider.id), ...(service.devIdentityProvider ? (["dev"] as const) : [])];
}
