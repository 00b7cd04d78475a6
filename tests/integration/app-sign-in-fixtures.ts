import { Hono } from "hono";
import { createAppSignIn } from "~/features/app-sign-in/app-sign-in.server";
import { createStorage } from "~/features/storage/storage.server";
import type { TestDatabase } from "~tests/helpers/databases";
import { startAuthServer, type ApiAnswer, type AuthTestClient, type AuthTestServer } from "./auth-server";

/** The apps the tests register: our own public app (native: a private-use scheme and loopback), and a partner's. */
export const testClients = [
  { client_id: "app", client_name: "任務小勇士 App", redirect_uris: ["tw.example.app:/callback", "http://127.0.0.1/callback"], post_logout_redirect_uris: ["tw.example.app:/signed-out"], public: true, first_party: true },
  { client_id: "partner", client_name: "合作夥伴", redirect_uris: ["https://partner.example.test/callback"], public: false, first_party: false },
];
export const partnerSecret = "partner-secret-0123456789abcdef-0123456789";

/** The sign-in layer, the app's OpenID provider and file storage on one real HTTP server over a test database. */
export async function startAppSignInServer(database: TestDatabase, env: Record<string, string> = {}): Promise<AuthTestServer> {
  return startAuthServer(
    database,
    { DATA_DIR: database.dataDir, OIDC_CLIENTS: JSON.stringify(testClients), OIDC_CLIENT_SECRET_PARTNER: partnerSecret, ...env },
    {
      routes: (service) => {
        const appSignIn = createAppSignIn({ authService: service });
        return new Hono()
          .route("/", appSignIn.routes)
          .route("/", createStorage({ env: service.env, database: database.handle, authService: service, appTokenUser: appSignIn.accessTokenUser }).routes);
      },
    },
  );
}

/**
 * A browser stand-in at the authorization endpoint: follows the site's redirects with the client's cookies and
 * answers where the browser would leave the site (the app's redirect URI with its code or error), the sign-in
 * screen it was sent to, or the page it stopped on (consent screen, error page).
 */
export type AuthorizeOutcome = { left: URL } | { signIn: URL } | { page: ApiAnswer };

export async function authorize(client: AuthTestClient, server: AuthTestServer, start: URL | string): Promise<AuthorizeOutcome> {
  let url = new URL(start, server.baseURL);
  for (let hop = 0; hop < 10; hop += 1) {
    if (url.origin !== server.baseURL) return { left: url };
    // The site's sign-in screens (and its confirm-identity step) are pages of the app, not served by this test server.
    if (url.pathname === "/login" || url.pathname === "/account/confirm-identity") return { signIn: url };
    const answer = await client.request("GET", `${url.pathname}${url.search}`);
    const location = answer.headers.get("location");
    if (answer.status < 300 || answer.status >= 400 || !location) return { page: answer };
    url = new URL(location, url);
  }
  throw new Error("too many redirects");
}

/** The consent form's answer, posted like the browser would (same origin). */
export async function decide(client: AuthTestClient, server: AuthTestServer, action: string, decision: "allow" | "deny"): Promise<AuthorizeOutcome> {
  const response = await fetch(`${server.baseURL}${action}`, {
    method: "POST",
    headers: {
      origin: server.baseURL,
      "content-type": "application/x-www-form-urlencoded",
      cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    },
    body: `decision=${decision}`,
    redirect: "manual",
  });
  const location = response.headers.get("location");
  if (!location) throw new Error(`the consent form answered ${response.status} without a redirect`);
  return authorize(client, server, new URL(location, server.baseURL));
}
