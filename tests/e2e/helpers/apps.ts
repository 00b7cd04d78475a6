/**
 * The apps registered with the e2e site's OpenID provider (tests/e2e/setup/server.ts): a first-party app and a
 * third-party one, both native-style with loopback redirects, so a reference app (tests/fixtures/reference-app.ts)
 * on any free port of 127.0.0.1 may sign in through the site; and a child's tablet app, which joins by the device
 * grant (RFC 8628).
 */
export const e2eApps = {
  family: { client_id: "e2e-family-app", client_name: "任務小勇士 App", first_party: true },
  partner: { client_id: "e2e-partner-app", client_name: "親子行事曆", first_party: false },
  tablet: { client_id: "e2e-tablet-app", client_name: "任務小勇士平板", first_party: true, grant_types: ["urn:ietf:params:oauth:grant-type:device_code"] },
} as const;

/** OIDC_CLIENTS for the e2e server. */
export const e2eOidcClients = JSON.stringify(
  Object.values(e2eApps).map((app) => ({
    ...app,
    redirect_uris: ["http://127.0.0.1/callback"],
    post_logout_redirect_uris: ["http://127.0.0.1/signed-out"],
    public: true,
  })),
);
