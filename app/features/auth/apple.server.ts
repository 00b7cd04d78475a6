import { createPrivateKey } from "node:crypto";
import type { BetterAuthPlugin } from "better-auth";
import { createAuthorizationURL, type OAuthProvider, validateAuthorizationCode } from "@better-auth/core/oauth2";
import { createRemoteJWKSet, jwtVerify, SignJWT, type JWTPayload } from "jose";
import type { ServerEnv } from "~/config/env.server";
import { realSocialProviders } from "./social-providers.server";
import * as authPaths from "./auth-paths";

/**
 * Sign in with Apple, on Better Auth's rules for a social provider (decision 182). Better Auth's own `apple`
 * provider reaches only appleid.apple.com and takes a fixed client secret; this one reads every address from
 * APPLE_URL (a stand-in on loopback in tests) and signs a fresh client secret with the .p8 key for each call.
 * Apple answers on `response_mode=form_post`: it POSTs the code (and, the first time only, the person's name as
 * the `user` JSON) to `/api/auth/callback/apple`, which Better Auth turns into a GET on the site.
 */
export interface AppleKeys {
  clientId: string;
  teamId: string;
  keyId: string;
  privateKey: string;
  /** Apple's base address: https://appleid.apple.com, or a stand-in. */
  url: string;
}

/** Apple's keys when Sign in with Apple is on (the config module checks the four come together). */
export function appleKeys(env: ServerEnv): AppleKeys | undefined {
  const { APPLE_CLIENT_ID: clientId, APPLE_TEAM_ID: teamId, APPLE_KEY_ID: keyId, APPLE_PRIVATE_KEY: privateKey } = env;
  return clientId && teamId && keyId && privateKey ? { clientId, teamId, keyId, privateKey, url: env.APPLE_URL } : undefined;
}

/** Apple's name for itself: the issuer of its tokens and the audience of every client secret, whatever address serves them. */
const appleIssuer = "https://appleid.apple.com";

/**
 * The client secret Apple asks for: a JWT signed ES256 with the .p8 key, from the team, about the Services ID.
 * Apple allows six months; ours lives five minutes, since a new one costs nothing.
 */
export function appleClientSecret(keys: AppleKeys): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: "ES256", kid: keys.keyId })
    .setIssuer(keys.teamId)
    .setSubject(keys.clientId)
    .setAudience(appleIssuer)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(createPrivateKey(keys.privateKey));
}

const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
/** Apple's signing keys (`/auth/keys`), fetched once and refreshed when a token names an unknown key. */
function appleKeySet(url: string) {
  let keySet = keySets.get(url);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(`${url}/auth/keys`));
    keySets.set(url, keySet);
  }
  return keySet;
}

/**
 * A JWT Apple signed for this Services ID (an ID token, a server-to-server notification): Apple's keys (RS256),
 * its issuer, our client as audience. Throws when any of it does not hold.
 */
export async function verifyAppleJwt(keys: AppleKeys, token: string, maxTokenAge?: string): Promise<JWTPayload> {
  const { payload } = await jwtVerify(token, appleKeySet(keys.url), {
    issuer: appleIssuer,
    audience: keys.clientId,
    algorithms: ["RS256"],
    ...(maxTokenAge ? { maxTokenAge } : {}),
  });
  return payload;
}

/** Apple's relay addresses: Apple vouches for them (they forward to the person's own address). */
export const isPrivateRelayAddress = (email: string) => email.toLowerCase().endsWith("@privaterelay.appleid.com");

/** Apple says true as a string or a boolean. */
const isTrue = (value: unknown) => value === true || value === "true";

const hanCharacter = /\p{Script=Han}/u;

/**
 * The name in Apple's first `user` JSON. A Chinese name is written family name first with no space (王小明);
 * others given name first (Anna Chen).
 */
export function nameFromAppleUser(user: unknown): string {
  const name = (user as { name?: { firstName?: unknown; lastName?: unknown } } | undefined)?.name;
  const given = typeof name?.firstName === "string" ? name.firstName.trim() : "";
  const family = typeof name?.lastName === "string" ? name.lastName.trim() : "";
  if (hanCharacter.test(given + family)) return `${family}${given}`;
  return [given, family].filter(Boolean).join(" ");
}

/** Apple as a Better Auth provider, every address under `keys.url`. */
export function appleProvider(keys: AppleKeys, scope: string[]): OAuthProvider {
  const options = async () => ({ clientId: keys.clientId, clientSecret: await appleClientSecret(keys) });
  return {
    id: "apple",
    name: "Apple",
    // The ID token's nonce ties it to this sign-in (kept in Better Auth's state).
    requiresIdTokenNonce: true,
    accountSubject: ({ profile }) => String((profile as { sub?: unknown }).sub ?? ""),
    createAuthorizationURL: ({ state, redirectURI, codeVerifier, idTokenNonce }) =>
      createAuthorizationURL({
        id: "apple",
        options: { clientId: keys.clientId },
        authorizationEndpoint: `${keys.url}/auth/authorize`,
        scopes: scope,
        state,
        redirectURI,
        codeVerifier,
        nonce: idTokenNonce,
        // Apple sends the name and address only by a form post (a query would put them in logs and history).
        responseMode: "form_post",
        responseType: "code",
      }),
    validateAuthorizationCode: ({ code, redirectURI, codeVerifier }) =>
      validateAuthorizationCode({ code, redirectURI, codeVerifier, options, tokenEndpoint: `${keys.url}/auth/token`, authentication: "post" }),
    async getUserInfo(tokens) {
      if (!tokens.idToken) return null;
      // The token came straight from Apple's token endpoint; its signature and nonce are checked all the same.
      const profile = await verifyAppleJwt(keys, tokens.idToken, "10m").catch(() => null);
      if (!profile?.sub || (tokens.expectedIdTokenNonce && profile.nonce !== tokens.expectedIdTokenNonce)) return null;
      const email = typeof profile.email === "string" ? profile.email : undefined;
      return {
        user: {
          // Sent once, with the first sign-in: the account keeps it (later sign-ins bring no name and change none).
          name: nameFromAppleUser(tokens.user),
          email,
          emailVerified: isTrue(profile.email_verified) || (email !== undefined && isPrivateRelayAddress(email)),
        },
        data: profile,
      };
    },
    options: { clientId: keys.clientId },
  };
}

const appleCallbackPath = authPaths.callbackId.replace(":id", "apple");

/** Adds Apple to the sign-in layer's providers when its keys are set. */
export function appleSignIn(env: ServerEnv): BetterAuthPlugin {
  const keys = appleKeys(env);
  const scope = realSocialProviders(env).find((provider) => provider.id === "apple")?.scope ?? [];
  return {
    id: "apple-sign-in",
    init: (ctx) => (keys ? { context: { socialProviders: [appleProvider(keys, scope), ...ctx.socialProviders] } } : undefined),
    // Apple's answer is a form it POSTs from its own origin, which the origin check would refuse when the browser
    // sends any cookie along. That POST does nothing but become the GET that finishes the sign-in (the state
    // cookie, the code exchange), so it is answered here with that redirect, as Better Auth's callback would.
    onRequest: async (request) => {
      const url = new URL(request.url);
      if (!keys || request.method !== "POST" || !url.pathname.endsWith(appleCallbackPath)) return;
      const form = await request.formData().catch(() => new FormData());
      for (const name of ["code", "state", "user", "error"]) {
        const value = form.get(name);
        if (typeof value === "string" && !url.searchParams.has(name)) url.searchParams.set(name, value);
      }
      return { response: new Response(null, { status: 302, headers: { location: url.toString() } }) };
    },
  };
}
