import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Configuration } from "openid-client";
import { ConfigError, parseEnv } from "~/config/env.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { discoverProvider, refresh, startSignIn } from "~tests/fixtures/reference-client";
import type { AuthTestServer } from "./auth-server";
import { authorize, partnerSecret, startAppSignInServer, testClients } from "./app-sign-in-fixtures";
import { appSignIn, nativeRedirect, signedUpAccount } from "./factories";

const password = "kite-river-7";

/**
 * The provider's smaller rules, on SQLite and PostgreSQL: a refresh token only with `offline_access`; an app's
 * sign-in ends once older than SESSION_ABSOLUTE_DAYS, also when the limit was lowered after it began; no PAR
 * advertised; no code in a fragment.
 */
describeEachDatabase("app sign-in: provider policies", (database) => {
  let server: AuthTestServer;
  let app: Configuration;

  beforeAll(async () => {
    // One day for both: the sign-ins below are made "older" than that by moving their start back.
    server = await startAppSignInServer(database(), { SESSION_IDLE_DAYS: "1", SESSION_ABSOLUTE_DAYS: "1" });
    app = await discoverProvider({ issuer: server.baseURL, clientId: "app" });
  });
  afterAll(async () => {
    await server.close();
  });

  async function signedIn(scope: string) {
    const { client } = await signedUpAccount(server, { prefix: "policies", password });
    return appSignIn(app, server, client, { parameters: { scope } });
  }

  it("issues a refresh token only for offline_access, and then says so in the answer's scope", async () => {
    const online = await signedIn("openid email");
    expect(online.refresh_token).toBeUndefined();
    expect(online.scope?.split(" ")).not.toContain("offline_access");

    const offline = await signedIn("openid email offline_access");
    expect(offline.refresh_token).toBeTruthy();
    expect(offline.scope?.split(" ")).toContain("offline_access");
  });

  it("an app sign-in older than SESSION_ABSOLUTE_DAYS ends, although its row was made under a longer limit", async () => {
    const tokens = await signedIn("openid offline_access");
    const grantId = (await database().handle.db.selectFrom("oidc_record").select("grant_id").where("kind", "=", "RefreshToken").where("id", "=", tokens.refresh_token!).executeTakeFirstOrThrow()).grant_id!;
    // As if it began two days ago under SESSION_ABSOLUTE_DAYS=30: its expiry is still ahead.
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    await database().handle.db.updateTable("session").set({ createdAt: database().handle.dialect === "postgres" ? twoDaysAgo : twoDaysAgo.toISOString() }).where("id", "=", grantId).execute();
    await expect(refresh(app, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    expect((await fetch(`${server.baseURL}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);
  });

  const tokenRequest = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${server.baseURL}/oidc/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form) });

  it("a client registered for HTTP Basic may not send its secret as a form field (token, revocation, introspection)", async () => {
    const basic = `Basic ${Buffer.from(`partner:${partnerSecret}`).toString("base64")}`;
    // The right secret the registered way reaches the grant (an unknown token: invalid_grant, not a client error).
    const registered = await tokenRequest({ grant_type: "refresh_token", refresh_token: "unknown" }, { authorization: basic });
    expect([registered.status, ((await registered.json()) as { error: string }).error]).toEqual([400, "invalid_grant"]);
    const posted = await tokenRequest({ grant_type: "refresh_token", refresh_token: "unknown", client_id: "partner", client_secret: partnerSecret });
    expect([posted.status, ((await posted.json()) as { error: string }).error]).toEqual([401, "invalid_client"]);
    // The same at revocation and introspection: the registered way answers, a form field is refused.
    for (const endpoint of ["/oidc/token/revocation", "/oidc/token/introspection"]) {
      const post = (form: Record<string, string>, headers: Record<string, string> = {}) =>
        fetch(`${server.baseURL}${endpoint}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form) });
      expect((await post({ token: "unknown" }, { authorization: basic })).status).toBe(200);
      const refused = await post({ token: "unknown", client_id: "partner", client_secret: partnerSecret });
      expect([endpoint, refused.status, ((await refused.json()) as { error: string }).error]).toEqual([endpoint, 401, "invalid_client"]);
    }
  });

  it("wrong client secrets from one address get 429 with Retry-After after the sign-in limit (30 a minute)", async () => {
    const wrong = `Basic ${Buffer.from("partner:wrong-secret-0123456789abcdef-0123456789").toString("base64")}`;
    // Its own address (the test server trusts X-Forwarded-For from loopback), so other tests are not limited.
    const address = `${database().handle.dialect === "postgres" ? "203.0.113" : "198.51.100"}.${Math.floor(Math.random() * 250) + 1}`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 35; attempt += 1) {
      statuses.push((await tokenRequest({ grant_type: "refresh_token", refresh_token: "unknown" }, { authorization: wrong, "x-forwarded-for": address })).status);
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses.slice(30)).toEqual(Array(5).fill(429));
    const limited = await tokenRequest({ grant_type: "refresh_token", refresh_token: "unknown" }, { authorization: wrong, "x-forwarded-for": address });
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await limited.json()).toMatchObject({ error: "too_many_requests" });
  });

  it("advertises no pushed authorization requests, and never puts a code in a fragment", async () => {
    expect(app.serverMetadata().pushed_authorization_request_endpoint).toBeUndefined();
    const client = server.client();
    expect((await client.post("/sign-up/email", { email: `fragment-${randomUUID().slice(0, 8)}@example.tw`, password, name: "小明" })).status).toBe(200);
    const pending = await startSignIn(app, nativeRedirect, { response_mode: "fragment" });
    const outcome = await authorize(client, server, pending.url);
    const left = "left" in outcome ? outcome.left : undefined;
    expect(left?.hash ?? "").not.toContain("code=");
    expect(left?.searchParams.get("code") ?? null).toBeNull();
  });
});

describe("registered client ids", () => {
  it("refuses ids that would share one secret variable (partner-web, partner.web) at start-up", () => {
    const clients = [
      { client_id: "partner-web", redirect_uris: ["https://partner.example.test/a"], public: false },
      { client_id: "partner.web", redirect_uris: ["https://partner.example.test/b"], public: false },
    ];
    const secret = "partner-secret-0123456789abcdef-0123456789";
    expect(() => parseEnv({ OIDC_CLIENTS: JSON.stringify(clients), OIDC_CLIENT_SECRET_PARTNER_WEB: secret })).toThrow(ConfigError);
    expect(() => parseEnv({ OIDC_CLIENTS: JSON.stringify(testClients), OIDC_CLIENT_SECRET_PARTNER: secret })).not.toThrow();
  });
});
