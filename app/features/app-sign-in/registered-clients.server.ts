import type { ServerEnv } from "~/config/env.server";
import { allowedScopes } from "./app-scopes.server";

export type RegisteredClients = ReturnType<typeof registeredClients>;

const isWebUri = (uri: string) => uri.startsWith("https:") || uri.startsWith("http:");
const isLoopback = (uri: string) => /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)[:/]/.test(uri);

/**
 * The apps registered by configuration (OIDC_CLIENTS, validated in env.server.ts) as oidc-provider client
 * metadata. An app with a private-use scheme or a loopback redirect is a native app (RFC 8252: any loopback port
 * is accepted); the rest are web apps. Public apps authenticate with PKCE alone, confidential ones with their
 * secret (HTTP Basic or a form field).
 */
export function registeredClients(env: ServerEnv) {
  const clients = env.oidcClients;
  const byId = new Map(clients.map((client) => [client.client_id, client]));
  const metadata = clients.map((client) => {
    const native = client.redirect_uris.some((uri) => !isWebUri(uri) || isLoopback(uri));
    return {
      client_id: client.client_id,
      client_name: client.client_name ?? client.client_id,
      application_type: native ? "native" : "web",
      redirect_uris: client.redirect_uris,
      post_logout_redirect_uris: client.post_logout_redirect_uris,
      grant_types: [...new Set(["authorization_code", "refresh_token", ...(client.grant_types ?? [])])],
      response_types: ["code"],
      scope: allowedScopes(client.first_party).join(" "),
      // Every ID token says when the parent last proved who they are (the session's start), asked or not.
      require_auth_time: true,
      // The code travels in the query (or a form post), never in a fragment.
      response_modes: ["query", "form_post"],
      ...(client.public
        ? { token_endpoint_auth_method: "none" }
        : { token_endpoint_auth_method: "client_secret_basic", client_secret: client.client_secret }),
    };
  });

  return {
    metadata,
    isFirstParty: (clientId: string) => byId.get(clientId)?.first_party ?? false,
    displayName: (clientId: string) => byId.get(clientId)?.client_name ?? clientId,
    /** Where the app's backend hears that one of its sign-ins ended (backchannel-logout.server.ts), if it listed one. */
    backchannelLogoutUri: (clientId: string) => byId.get(clientId)?.backchannel_logout_uri,
    /** Whether any app listed a back-channel address. */
    anyBackchannel: () => clients.some((client) => client.backchannel_logout_uri),
    /** Origins a browser app may call the token, userinfo and revocation endpoints from: its web redirects' origins. */
    corsOrigins: (clientId: string) =>
      [...new Set((byId.get(clientId)?.redirect_uris ?? []).filter(isWebUri).map((uri) => new URL(uri).origin))],
    /** Every app's CORS origins together: the only origins a preflight of the provider's endpoints is answered for. */
    allCorsOrigins: () => [...new Set(clients.flatMap((client) => client.redirect_uris.filter(isWebUri).map((uri) => new URL(uri).origin)))],
    /** Every redirect target of every app, as CSP sources: the provider's pages may end by sending the browser there. */
    redirectSources: () =>
      [
        ...new Set(
          clients
            .flatMap((client) => [...client.redirect_uris, ...client.post_logout_redirect_uris])
            .map((uri) => (isLoopback(uri) ? `http://${new URL(uri).hostname}:*` : isWebUri(uri) ? new URL(uri).origin : new URL(uri).protocol)),
        ),
      ],
  };
}
