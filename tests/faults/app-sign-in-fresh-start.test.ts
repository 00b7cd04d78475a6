import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { siteUrl, startSite, type SiteProcess } from "./site-process";
import { appClient, refreshAt, send, signInApp, userinfoStatus } from "./app-sign-in-client";
import { devIdentityClient } from "~/features/auth/index.server";

/**
 * The provider's first requests on a freshly started instance (it makes the provider on its first /oidc request):
 * a refresh or the app's sign-out (revocation) as the very first request is answered like any later one, and the
 * log holds no "already parsed request body" warning (the host must leave the provider's request bodies alone).
 */
describe("the app's sign-in on a freshly started instance (SQLite)", () => {
  const env = { OIDC_CLIENTS: JSON.stringify([appClient]) };
  let first: SiteProcess;
  const fresh: SiteProcess[] = [];

  beforeAll(async () => {
    first = await startSite(env);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([first, ...fresh].map((site) => site?.stop("SIGKILL")));
  });

  /** A new instance on the same database (SQLite file), whose provider is not made yet. */
  const freshInstance = async () => {
    const site = await startSite(env, { dataDir: first.dataDir });
    fresh.push(site);
    return site;
  };

  it("a refresh as the first request of a fresh instance is answered 200", async () => {
    const { tokens } = await signInApp(first.baseURL, { site: siteUrl });
    const site = await freshInstance();
    const refreshed = await refreshAt(site.baseURL, tokens.refresh_token);
    expect([refreshed.status, refreshed.body.error]).toEqual([200, undefined]);
    expect(await userinfoStatus(site.baseURL, refreshed.body.access_token)).toBe(200);
    expect(site.output()).not.toContain("already parsed request body");
  }, 90_000);

  it("the app's sign-out (revocation) as the first request of a fresh instance ends the sign-in", async () => {
    const { tokens } = await signInApp(first.baseURL, { site: siteUrl });
    const site = await freshInstance();
    const revoked = await send(`${site.baseURL}/oidc/token/revocation`, { form: { token: tokens.refresh_token, token_type_hint: "refresh_token", client_id: "app" } });
    expect(revoked.status).toBe(200);
    const after = await refreshAt(first.baseURL, tokens.refresh_token);
    expect([after.status, after.body.error]).toEqual([400, "invalid_grant"]);
    expect(await userinfoStatus(first.baseURL, tokens.access_token)).toBe(401);
    expect(site.output()).not.toContain("already parsed request body");
  }, 90_000);

  // The development provider is made on its first request too, and its body arrives while it is made: a sign-in
  // whose token exchange reached such a worker failed ("missing grant_type") in the two-worker e2e run.
  it("the development provider's token request as the first request of a fresh instance reads its body", async () => {
    const site = await freshInstance();
    const exchange = await send(`${site.baseURL}/dev-oidc/token`, {
      form: {
        grant_type: "authorization_code",
        code: "a-code-this-provider-never-issued",
        redirect_uri: `${siteUrl}/api/auth/oauth2/callback/dev`,
        code_verifier: "a".repeat(43),
        client_id: devIdentityClient.clientId,
        client_secret: devIdentityClient.clientSecret,
      },
    });
    // The provider read the form: it looked the code up (invalid_grant), rather than finding no grant_type.
    expect([exchange.status, (JSON.parse(exchange.text) as { error?: string }).error]).toEqual([400, "invalid_grant"]);
    expect(site.output()).not.toContain("already parsed request body");
  }, 90_000);
});
