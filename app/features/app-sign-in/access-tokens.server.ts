import { createHash } from "node:crypto";
import type Provider from "oidc-provider";
import type { Configuration, Grant } from "oidc-provider";
import type { ServerEnv } from "~/config/env.server";
import type { RegisteredClients } from "./registered-clients.server";
import { allowedScopes } from "./app-scopes.server";

type Features = NonNullable<Configuration["features"]>;
type Option<Name extends keyof Features> = NonNullable<Features[Name]>;

/**
 * The `sid` of an app's sign-in: derived from its grant's id (which is also its session row's id,
 * app-sessions.server.ts), so the ID token, the JWT access token and the back-channel logout token
 * (backchannel-logout.server.ts) all name the same sign-in without a table of their own, and the grant's id is
 * never shown to the app.
 */
export const sessionIdOf = (grantId: string) => createHash("sha256").update(`sid:${grantId}`).digest("base64url").slice(0, 32);

/** What an access token for a registered API may carry: the grant's scopes other than the OpenID session ones. */
const resourceScopes = (firstParty: boolean) => allowedScopes(firstParty).filter((scope) => scope !== "openid" && scope !== "offline_access");

/**
 * Access tokens an app's API verifies offline (RFC 9068, decision 190): an app that names one of OIDC_RESOURCES in
 * `resource` (RFC 8707) at the token endpoint gets a JWT signed with the provider's key (`typ: at+jwt`, `aud` the
 * API, `scope`, `client_id`, `sid`); without `resource` it gets an opaque token for userinfo and storage, which
 * the app's backend may check by introspection (RFC 7662). Storage never accepts a JWT access token: its
 * audience is the app's API, and storage finds only the opaque tokens it was granted.
 */
export function accessTokenFeatures(options: { env: ServerEnv; clients: RegisteredClients; lifetimeSeconds: number; alg: string }): { resourceIndicators: Option<"resourceIndicators">; introspection: Option<"introspection"> } {
  const registered = new Set(options.env.OIDC_RESOURCES);
  return {
    resourceIndicators: {
      enabled: registered.size > 0,
      // Only what the app names: a request without `resource` gets the opaque token userinfo accepts.
      defaultResource: async (_ctx, _client, oneOf) => oneOf ?? undefined,
      useGrantedResource: async () => false,
      getResourceServerInfo: async (_ctx, resource, client) => {
        if (!registered.has(resource)) {
          const { errors } = await import("oidc-provider");
          throw new errors.InvalidTarget("此 API 未登記（OIDC_RESOURCES）");
        }
        return {
          scope: resourceScopes(options.clients.isFirstParty(client.clientId)).join(" "),
          audience: resource,
          accessTokenFormat: "jwt",
          accessTokenTTL: options.lifetimeSeconds,
          jwt: { sign: { alg: options.alg } },
        };
      },
    },
    introspection: {
      enabled: true,
      // Client-authenticated only: a public app (no secret) cannot introspect; a partner sees only its own tokens,
      // our own confidential backend those of any of our own apps.
      allowedPolicy: async (_ctx, caller, token) =>
        caller.clientAuthMethod !== "none" &&
        (token.clientId === caller.clientId || (options.clients.isFirstParty(caller.clientId) && options.clients.isFirstParty(token.clientId ?? ""))),
    },
  };
}

/** Every access token names its sign-in: `sid` beside the RFC 9068 claims (and in introspection's answer). */
export const extraTokenClaims: NonNullable<Configuration["extraTokenClaims"]> = async (_ctx, token) =>
  token.grantId ? { sid: sessionIdOf(token.grantId) } : undefined;

/** The scopes a grant holds for each API the app named in `resource` (at the authorization request). */
export function grantResourceScopes(grant: Grant, missing: Record<string, string[]> | undefined) {
  for (const [resource, scopes] of Object.entries(missing ?? {})) grant.addResourceScope(resource, scopes.join(" "));
}

/** The scopes a new first-party grant holds for the APIs of the request's `resource` (the interaction's are added there). */
export function requestedResourceScopes(resource: unknown, scope: string, env: ServerEnv, firstParty: boolean): Record<string, string[]> {
  const named = (Array.isArray(resource) ? resource : resource ? [resource] : []).filter((item): item is string => typeof item === "string" && env.OIDC_RESOURCES.includes(item));
  const allowed = new Set(resourceScopes(firstParty));
  const scopes = scope.split(" ").filter((item) => allowed.has(item));
  return Object.fromEntries(named.map((item) => [item, scopes]));
}

/**
 * The ID token's `sid` (and the tokens' own `sid`) is the one `sessionIdOf` gives, for every app: oidc-provider
 * otherwise names a sign-in only for an app registered with its back-channel feature, with a random id of its own
 * that the grant does not keep. Changed on this provider's own classes (each provider has its own), not globally.
 */
export function nameSessionsByGrant(provider: Provider) {
  const { Client, Session } = provider as unknown as {
    Client: { prototype: { includeSid(): boolean } };
    Session: { prototype: { sidFor(clientId: string, value?: string): string | undefined; grantIdFor(clientId: string): string | undefined } };
  };
  Client.prototype.includeSid = () => true;
  const ownSidFor = Session.prototype.sidFor;
  Session.prototype.sidFor = function sidFor(clientId, value) {
    const grantId = value === undefined ? this.grantIdFor(clientId) : undefined;
    return grantId ? sessionIdOf(grantId) : ownSidFor.call(this, clientId, value);
  };
}
