import type Provider from "oidc-provider";
import type { Configuration, ProviderContext } from "oidc-provider";
import type { ServerEnv } from "~/config/env.server";
import type { DatabaseHandle } from "~/db/connection.server";
import { currentRequestErrors, noteRequestError } from "~/services/request-context.server";
import { isDependencyUnavailable, serviceUnavailableMessage } from "~/services/dependency-errors.server";
import { appSessions, startGrantSession, type AppSessions } from "./app-sessions.server";
import { providerRecords, type ProviderRecords } from "./provider-records.server";
import { guardTokenGrants } from "./refresh-rotation.server";
import { registerTokenExchange } from "./token-exchange.server";
import { secretTheRegisteredWayOnly } from "./client-auth.server";
import { signingKeys } from "./signing-keys.server";
import { supportedScopes } from "./app-scopes.server";
import type { RegisteredClients } from "./registered-clients.server";
import type { BackchannelLogout } from "./backchannel-logout.server";
import { errorPage, logoutPage, signedOutPage } from "./provider-pages.server";
import { accountWithFamilyClaim } from "~/features/family/family-claims.server";
import { givenEmail } from "~/features/auth";
import { childAccount, deviceFlowFeature, devicePath } from "./device-flow.server";
import { accessTokenFeatures, extraTokenClaims, grantResourceScopes, nameSessionsByGrant, requestedResourceScopes } from "./access-tokens.server";
import { interactionPolicy, keepOnlyEssentialAcr, supportedAcrValues } from "./sign-in-strength.server";
import { answerWithInterval, guardDevicePolls } from "./device-polls.server";
import { fixedWindowLimiter, type RateLimitStore } from "~/services/rate-limiter.server";

const day = 24 * 3600;


/** The paths of the provider's endpoints below the site's origin (the issuer); discovery names them all. */
export const providerPaths = {
  authorization: "/oidc/auth",
  token: "/oidc/token",
  userinfo: "/oidc/me",
  jwks: "/oidc/jwks",
  revocation: "/oidc/token/revocation",
  introspection: "/oidc/token/introspection",
  end_session: "/oidc/session/end",
  interaction: "/oidc/interaction",
  device_authorization: "/oidc/device/auth",
};

/** The provider's cookie names (its own session, and one interaction at a time). */
export const providerCookies = { session: "oidc.session", interaction: "oidc.interaction", resume: "oidc.resume" };

/** Token lifetimes in seconds (docs/app-integration.md): short access and ID tokens, refresh within the site's session rules. */
export function tokenLifetimes(env: ServerEnv) {
  const accessToken = env.OIDC_ACCESS_TOKEN_MINUTES * 60;
  return {
    AccessToken: accessToken,
    IdToken: accessToken,
    AuthorizationCode: 60,
    // Long enough to sign up, open the verification mail and come back.
    Interaction: 3600,
    // A refresh token unused for SESSION_IDLE_DAYS expires; the app's sign-in ends SESSION_ABSOLUTE_DAYS after it began.
    RefreshToken: env.SESSION_IDLE_DAYS * day,
    Session: env.SESSION_IDLE_DAYS * day,
    Grant: env.SESSION_ABSOLUTE_DAYS * day,
  };
}

export interface AppProviderDependencies {
  env: ServerEnv;
  database: DatabaseHandle;
  clients: RegisteredClients;
  logout: BackchannelLogout;
  /** The sign-in layer's counters (Redis when configured): a tablet's device-code polls (device-polls.server.ts). */
  rateLimitStore: RateLimitStore;
}

export interface AppProvider {
  provider: Provider;
  clients: RegisteredClients;
  sessions: AppSessions;
  records: ProviderRecords;
  lifetimes: ReturnType<typeof tokenLifetimes>;
}

/** The site as an OpenID provider for the app (panva's oidc-provider, decision 180), issuer = SITE_URL. */
export async function createAppProvider({ env, database, clients, logout, rateLimitStore }: AppProviderDependencies): Promise<AppProvider> {
  const { default: OidcProvider } = await import("oidc-provider");
  const sessions = appSessions(database, env.SESSION_ABSOLUTE_DAYS);
  const records = providerRecords({ database, sessions, settle: logout.settle });
  const lifetimes = tokenLifetimes(env);
  const keys = await signingKeys(env, database);

  const configuration: Configuration = {
    adapter: records,
    clients: clients.metadata,
    jwks: { keys },
    // ID tokens are signed with the first key (ES256 unless OIDC_JWKS lists an RS256 key first).
    clientDefaults: { id_token_signed_response_alg: keys[0]!.alg, grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] },
    cookies: { keys: [env.AUTH_SECRET ?? "development-secret-for-loopback-sites-only-0123456789"], names: providerCookies },
    scopes: supportedScopes,
    claims: { openid: ["sub", "acr", "amr", "is_anonymous", "role", "family", "child"], email: ["email", "email_verified"], profile: ["name", "picture"] },
    // The ID token carries every granted claim, so an app can read them offline after verifying its signature.
    conformIdTokenClaims: false,
    responseTypes: ["code"],
    pkce: { required: () => true },
    acrValues: supportedAcrValues,
    extraTokenClaims,
    // Sent through the outbox by the site itself (backchannel-logout.server.ts), not by the provider: advertised here.
    discovery: { backchannel_logout_supported: true, backchannel_logout_session_supported: true },
    routes: {
      authorization: providerPaths.authorization,
      token: providerPaths.token,
      userinfo: providerPaths.userinfo,
      jwks: providerPaths.jwks,
      revocation: providerPaths.revocation,
      introspection: providerPaths.introspection,
      end_session: providerPaths.end_session,
      device_authorization: providerPaths.device_authorization,
      code_verification: devicePath,
    },
    features: {
      devInteractions: { enabled: false },
      // Not offered (nor advertised in discovery): the host routes no /request endpoint.
      pushedAuthorizationRequests: { enabled: false },
      deviceFlow: deviceFlowFeature,
      // Read for an essential `acr` only (OpenID Connect Core 5.5.1.1), honoured like acr_values: decision 1010.
      claimsParameter: { enabled: true, assertClaimsParameter: keepOnlyEssentialAcr },
      revocation: { enabled: true },
      ...accessTokenFeatures({ env, clients, lifetimeSeconds: lifetimes.AccessToken, alg: keys[0]!.alg }),
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: { body: string; oidc?: { client?: { clientId: string } } }, form: string) => {
          const clientId = ctx.oidc?.client?.clientId;
          const cancelHref = (clientId && clients.corsOrigins(clientId)[0]) || "/";
          ctx.body = logoutPage(env.PRODUCT_NAME, form, { appName: clientId ? clients.displayName(clientId) : null, cancelHref });
        },
        postLogoutSuccessSource: async (ctx: { body: string }) => void (ctx.body = signedOutPage(env.PRODUCT_NAME)),
      },
    },
    ttl: lifetimes,
    // Every use of a refresh token replaces it; presenting a used one again revokes the whole grant (reuse detection,
    // made atomic and given a short grace for a lost answer in refresh-rotation.server.ts).
    rotateRefreshToken: true,
    // A refresh token only when the app asked for `offline_access` (the consent screen says it stays signed in).
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }, code: { scopes: Set<string> }) =>
      client.grantTypeAllowed("refresh_token") && code.scopes.has("offline_access"),
    // Revoking either token is the app's sign-out: the grant and its session end with it.
    revokeGrantPolicy: () => true,
    // Set by the host for a silent request the provider itself could not answer (provider-routes.server.ts).
    extraParams: ["silent"],
    interactions: { url: (_ctx, interaction) => `${providerPaths.interaction}/${interaction.uid}`, policy: await interactionPolicy() },
    clientBasedCORS: (_ctx: unknown, origin: string, client: { clientId: string }) => clients.corsOrigins(client.clientId).includes(origin),
    renderError: async (ctx: { type: string; body: string }, out: { error: string; error_description?: string }) => {
      ctx.type = "html";
      ctx.body = errorPage(env.PRODUCT_NAME, out.error);
    },
    // A first-party app signs in without a consent screen, also silently (prompt=none) after its grant ended.
    loadExistingGrant: async (ctx) => {
      const { provider, client, session } = ctx.oidc;
      const result = (ctx.oidc as { result?: { consent?: { grantId?: string } } }).result;
      const grantId = result?.consent?.grantId ?? (session as { grantIdFor?(id: string): string | undefined } | undefined)?.grantIdFor?.(client!.clientId);
      const existing = grantId ? await provider.Grant.find(grantId) : undefined;
      if (existing || !client || !session?.accountId || !clients.isFirstParty(client.clientId)) return existing;
      return grantFor(provider, sessions, lifetimes.Grant, {
        accountId: session.accountId,
        clientId: client.clientId,
        appName: clients.displayName(client.clientId),
        scope: String(ctx.oidc.params?.scope ?? "openid"),
        resourceScopes: requestedResourceScopes(ctx.oidc.params?.resource, String(ctx.oidc.params?.scope ?? ""), env, true),
        ipAddress: (ctx as { ip?: string }).ip ?? null,
      });
    },
    findAccount: async (_ctx, id) => {
      const user = await accountWithFamilyClaim(database.db, id);
      // A locked account (the operator console) gets no token, code or claims from any grant it still holds.
      if (user?.lockedAt) return undefined;
      // Not a parent: a child's tablet (device-flow.server.ts), or no one.
      if (!user) return childAccount(database, id);
      const anonymous = Boolean(user.isAnonymous);
      // A guest's or a phone account's placeholder address is not an email anyone can write to: no `email` at all.
      const email = anonymous ? null : givenEmail(user.email);
      return {
        accountId: user.id,
        claims: async () => ({
          sub: user.id,
          email: email ?? undefined,
          email_verified: anonymous ? false : email ? Boolean(user.emailVerified) : undefined,
          name: user.name || undefined,
          picture: user.image ?? undefined,
          is_anonymous: anonymous,
          role: user.role,
          // The parent's family (docs/app-integration.md), when they have one.
          family: user.family ?? undefined,
        }),
      };
    },
  };

  const provider = new OidcProvider(env.SITE_URL, configuration);
  // The routes set Host, X-Forwarded-Proto and X-Forwarded-For themselves (provider-routes.server.ts: asIssuerRequest),
  // so the provider names the site's origin and marks its cookies Secure on an https site.
  provider.proxy = true;
  provider.on("server_error", (_ctx, error) => noteRequestError(error));
  provider.use(answerOutagesWith503);
  provider.use(responseModesAsOffered);
  provider.use(unauthorizedClientForGrantTypes);
  provider.use(answerWithInterval);
  nameSessionsByGrant(provider);
  await guardTokenGrants(provider, records, database);
  await guardDevicePolls(provider, rateLimitStore);
  // Apps installed before the switch from Firebase trade their Firebase sign-in (token-exchange.server.ts).
  if (env.FIREBASE_PROJECT_ID) {
    await registerTokenExchange(provider, {
      database,
      projectId: env.FIREBASE_PROJECT_ID,
      jwksUrl: env.FIREBASE_JWKS_URL,
      grantFor: (input) => grantFor(provider, sessions, lifetimes.Grant, { ...input, appName: clients.displayName(input.clientId) }),
      refusals: fixedWindowLimiter(rateLimitStore, env.RATE_LIMIT_SIGN_IN_PER_IP, "firebase-exchange:"),
    });
  }
  await secretTheRegisteredWayOnly(provider);
  return { provider, clients, sessions, records, lifetimes };
}

/**
 * A new grant for one app and account, with the scopes the app asked for that the site supports, and the session
 * row it lives by (app-sessions.server.ts).
 */
export async function grantFor(
  provider: Provider,
  sessions: AppSessions,
  lifetimeSeconds: number,
  input: { accountId: string; clientId: string; appName: string; scope: string; resourceScopes?: Record<string, string[]>; ipAddress: string | null },
) {
  const grant = new provider.Grant({ accountId: input.accountId, clientId: input.clientId });
  const scopes = input.scope.split(" ").filter((scope) => supportedScopes.includes(scope));
  grant.addOIDCScope([...new Set(["openid", ...scopes])].join(" "));
  grantResourceScopes(grant, input.resourceScopes);
  await startGrantSession(grant, () =>
    sessions.start({ grantId: grant.jti, userId: input.accountId, appName: input.appName, ipAddress: input.ipAddress, lifetimeSeconds }),
  );
  return grant;
}

/**
 * A request the provider failed because the database is away answers 503 with Retry-After, like the site's
 * pages, not 500 server_error: the app retries later and keeps its tokens. JSON answers (token, userinfo,
 * revocation) say `temporarily_unavailable`; pages keep the provider's error page.
 */
async function answerOutagesWith503(ctx: ProviderContext, next: () => Promise<void>) {
  await next();
  if (ctx.status !== 500 || !currentRequestErrors().some(isDependencyUnavailable)) return;
  ctx.status = 503;
  ctx.set("Retry-After", "5");
  ctx.set("Cache-Control", "no-store");
  if (ctx.body && typeof ctx.body === "object" && !Buffer.isBuffer(ctx.body)) {
    ctx.body = { error: "temporarily_unavailable", error_description: serviceUnavailableMessage };
  }
}

/**
 * A grant type the app is not registered for is `unauthorized_client` at the token endpoint (RFC 6749 5.2), where
 * oidc-provider says invalid_request.
 */
async function unauthorizedClientForGrantTypes(ctx: ProviderContext, next: () => Promise<void>) {
  await next();
  const body = ctx.body as { error?: string; error_description?: string } | undefined;
  if (ctx.oidc?.route === "token" && ctx.status === 400 && body?.error === "invalid_request" && body.error_description === "requested grant type is not allowed for this client") {
    body.error = "unauthorized_client";
  }
}

/** Discovery lists only the response modes every app is registered with (query, form_post), not the provider's fragment. */
async function responseModesAsOffered(ctx: ProviderContext, next: () => Promise<void>) {
  await next();
  const body = ctx.body as { response_modes_supported?: string[] } | undefined;
  if (ctx.oidc?.route === "discovery" && body?.response_modes_supported) body.response_modes_supported = ["query", "form_post"];
}
