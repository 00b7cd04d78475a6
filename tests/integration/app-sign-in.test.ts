import { randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Configuration } from "openid-client";
import { endSessionsOf } from "~/features/auth/index.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { discoverProvider, finishSignIn, refresh, signOut, startSignIn, userInfo, type TokenSet } from "~tests/fixtures/reference-client";
import type { AuthTestClient, AuthTestServer } from "./auth-server";
import { authorize, decide, partnerSecret, startAppSignInServer } from "./app-sign-in-fixtures";
import { appSignIn, signedUpAccount } from "./factories";
import { multipart, png } from "./storage-fixtures";

const password = "kite-river-7";
const nativeRedirect = "tw.example.app:/callback";

/**
 * The site as the app's OpenID provider, through the reference client (openid-client) on a real server, on SQLite
 * and PostgreSQL: discovery, code + PKCE, claims, refresh rotation and reuse detection, revocation, storage with
 * the app's access token, and every way a session ends taking the app's tokens (and the site's storage JWT) along.
 */
describeEachDatabase("app sign-in (OpenID provider)", (database) => {
  let server: AuthTestServer;
  let app: Configuration;

  beforeAll(async () => {
    server = await startAppSignInServer(database());
    app = await discoverProvider({ issuer: server.baseURL, clientId: "app" });
  });
  afterAll(async () => {
    await server.close();
  });

  async function parent() {
    const { client, email, id } = await signedUpAccount(server, { prefix: "app", password });
    return { client, email, uid: id };
  }

  /** The whole sign-in of the app for a browser that is signed in on the site. */
  const signInApp = (browser: AuthTestClient, redirectUri = nativeRedirect): Promise<TokenSet> =>
    // Our own app asks for its files too (docs/app-integration.md: the storage scope).
    appSignIn(app, server, browser, { redirectUri, parameters: { scope: "openid email profile offline_access storage" } });

  const userinfoStatus = async (accessToken: string) =>
    (await fetch(`${server.baseURL}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` } })).status;
  const refreshError = async (refreshToken: string) =>
    refresh(app, refreshToken).then(
      () => "accepted",
      (error: { error?: string }) => error.error,
    );
  const upload = async (uid: string, token: string, scheme = "Bearer") => {
    const objectPath = `users/${uid}/app-${randomUUID().slice(0, 6)}.png`;
    const { body, headers } = multipart(objectPath, await png());
    const response = await fetch(`${server.baseURL}/v0/b/default/o?name=${encodeURIComponent(objectPath)}`, {
      method: "POST",
      headers: { ...headers, authorization: `${scheme} ${token}` },
      body,
    });
    return response.status;
  };

  it("publishes discovery at the site's origin: code flow with S256 only, its endpoints and keys", async () => {
    const metadata = app.serverMetadata();
    expect(metadata.issuer).toBe(server.baseURL);
    expect(metadata.authorization_endpoint).toBe(`${server.baseURL}/oidc/auth`);
    expect(metadata.token_endpoint).toBe(`${server.baseURL}/oidc/token`);
    expect(metadata.userinfo_endpoint).toBe(`${server.baseURL}/oidc/me`);
    expect(metadata.revocation_endpoint).toBe(`${server.baseURL}/oidc/token/revocation`);
    expect(metadata.end_session_endpoint).toBe(`${server.baseURL}/oidc/session/end`);
    expect(metadata.code_challenge_methods_supported).toEqual(["S256"]);
    expect(metadata.response_types_supported).toEqual(["code"]);
    const keys = (await (await fetch(metadata.jwks_uri!)).json()) as { keys: Array<Record<string, unknown>> };
    expect(keys.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
    expect(keys.keys[0]).not.toHaveProperty("d");
  });

  it("signs a parent in (code + PKCE), with the claims the app relies on, refreshes with rotation and calls storage", async () => {
    const { client, email, uid } = await parent();
    const tokens = await signInApp(client);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: server.baseURL, aud: "app", sub: uid, email, email_verified: false, name: "小明", is_anonymous: false, role: "user" });
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.expires_in).toBe(600);
    expect(await userInfo(app, tokens.access_token, uid)).toMatchObject({ sub: uid, email, is_anonymous: false, role: "user" });

    const next = await refresh(app, tokens.refresh_token!);
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect(next.claims()?.sub).toBe(uid);
    expect(await upload(uid, next.access_token)).toBe(200);
    // Someone else's folder stays closed to this token.
    expect(await upload(randomUUID(), next.access_token)).toBe(403);
  });

  it("leaves `email` out of a phone account's ID token and userinfo: its placeholder address is no address", async () => {
    const client = server.client();
    const number = `+8869${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    expect((await client.post("/phone-number/send-otp", { phoneNumber: number })).status).toBe(200);
    let code = "";
    for (let attempt = 0; attempt < 100 && !code; attempt += 1) {
      const text = await server.service.database.db.selectFrom("dev_mail").select("text").where("recipient", "=", number).executeTakeFirst();
      code = /(\d{6})/.exec(text?.text ?? "")?.[1] ?? "";
      if (!code) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const verified = await client.post<{ user: { id: string } }>("/phone-number/verify", { phoneNumber: number, code, name: "陳媽媽" });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const uid = verified.body.user.id;
    const tokens = await signInApp(client);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ sub: uid, name: "陳媽媽", is_anonymous: false });
    expect(claims).not.toHaveProperty("email");
    expect(claims).not.toHaveProperty("email_verified");
    const info = await userInfo(app, tokens.access_token, uid);
    expect(info).toMatchObject({ sub: uid, name: "陳媽媽" });
    expect(info).not.toHaveProperty("email");
    expect(JSON.stringify({ claims, info })).not.toContain(".invalid");
  });

  it("accepts loopback redirects on any port and refuses a redirect URI that is not registered", async () => {
    const { client } = await parent();
    const tokens = await signInApp(client, "http://127.0.0.1:54321/callback");
    expect(tokens.access_token).toBeTruthy();

    const pending = await startSignIn(app, "https://evil.example/callback");
    const outcome = await authorize(client, server, pending.url);
    expect("page" in outcome && outcome.page.status).toBe(400);
    expect("page" in outcome && String(outcome.page.body)).toContain("invalid_redirect_uri");
  });

  it("requires PKCE: a request without a code challenge is refused", async () => {
    const { client } = await parent();
    const pending = await startSignIn(app, nativeRedirect);
    pending.url.searchParams.delete("code_challenge");
    pending.url.searchParams.delete("code_challenge_method");
    const outcome = await authorize(client, server, pending.url);
    expect("left" in outcome && outcome.left.searchParams.get("error")).toBe("invalid_request");
    expect("left" in outcome && outcome.left.searchParams.get("code")).toBeNull();
  });

  it("a refresh token replayed after its successor was used revokes its whole family", async () => {
    const { client } = await parent();
    const first = await signInApp(client);
    const second = await refresh(app, first.refresh_token!);
    const third = await refresh(app, second.refresh_token!);
    expect(await refreshError(first.refresh_token!)).toBe("invalid_grant");
    // The thief's replay ended the grant: the legitimate holder's newer tokens are refused too.
    expect(await refreshError(third.refresh_token!)).toBe("invalid_grant");
    expect(await userinfoStatus(third.access_token)).toBe(401);
  });

  it("sends a browser that is not signed in to the site's own sign-in screen, and answers login_required to prompt=none", async () => {
    const browser = server.client();
    const pending = await startSignIn(app, nativeRedirect);
    const outcome = await authorize(browser, server, pending.url);
    expect("signIn" in outcome && outcome.signIn.searchParams.get("redirectTo")).toMatch(/^\/oidc\/interaction\/[\w-]+$/);

    const silent = await startSignIn(app, nativeRedirect, { prompt: "none" });
    const answer = await authorize(server.client(), server, silent.url);
    expect("left" in answer && answer.left.searchParams.get("error")).toBe("login_required");
  });

  it("signs in silently (prompt=none) a parent signed in on the site, without any screen", async () => {
    const { client, uid } = await parent();
    const pending = await startSignIn(app, nativeRedirect, { prompt: "none" });
    const outcome = await authorize(client, server, pending.url);
    if (!("left" in outcome)) throw new Error("stopped on a page");
    expect((await finishSignIn(app, outcome.left, pending)).claims()?.sub).toBe(uid);
  });

  it("keeps a guest's sub through the upgrade", async () => {
    const guest = server.client();
    const signedIn = await guest.post<{ user: { id: string } }>("/sign-in/anonymous");
    expect(signedIn.status).toBe(200);
    const tokens = await signInApp(guest);
    expect(tokens.claims()).toMatchObject({ sub: signedIn.body.user.id, is_anonymous: true, email_verified: false });
    expect(tokens.claims()).not.toHaveProperty("email");

    const email = `upgraded-${randomUUID().slice(0, 8)}@example.tw`;
    expect((await guest.post("/guest/upgrade", { email, password, name: "小明" })).status).toBe(200);
    const after = await refresh(app, tokens.refresh_token!);
    expect(after.claims()).toMatchObject({ sub: signedIn.body.user.id, is_anonymous: false, email });
  });

  it("answers a CORS preflight of the token, userinfo, revocation and introspection endpoints only for a registered app's origin", async () => {
    const preflight = (path: string, origin: string) =>
      fetch(`${server.baseURL}${path}`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" } });
    for (const path of ["/oidc/token", "/oidc/me", "/oidc/token/revocation", "/oidc/token/introspection", "/oidc/device/auth"]) {
      const foreign = await preflight(path, "https://attacker.example.test");
      expect([path, foreign.status, foreign.headers.get("access-control-allow-origin")]).toEqual([path, 403, null]);
      const registered = await preflight(path, "https://partner.example.test");
      expect([path, registered.status < 300, registered.headers.get("access-control-allow-origin")]).toEqual([path, true, "https://partner.example.test"]);
    }
    // No Origin at all (not a browser's preflight): nothing to allow either.
    expect((await fetch(`${server.baseURL}/oidc/token`, { method: "OPTIONS" })).headers.get("access-control-allow-origin")).toBeNull();
  });

  it("shows a third-party app a consent screen in Traditional Chinese; refusing answers access_denied", async () => {
    const partner = await discoverProvider({ issuer: server.baseURL, clientId: "partner", clientSecret: partnerSecret });
    const { client, uid } = await parent();
    const pending = await startSignIn(partner, "https://partner.example.test/callback");
    const outcome = await authorize(client, server, pending.url);
    if (!("page" in outcome)) throw new Error("no consent screen");
    // The consent form may lead only here and to the registered apps' addresses.
    expect(outcome.page.headers.get("content-security-policy")).toMatch(/form-action 'self' [^;]*https:\/\/partner\.example\.test[ ;]/);
    const html = String(outcome.page.body);
    expect(html).toContain("授權應用程式");
    expect(html).toContain("「合作夥伴」想以你的任務小勇士帳號");
    const action = /action="([^"]+)"/.exec(html)![1]!;

    const refused = await decide(client, server, action, "deny");
    expect("left" in refused && refused.left.searchParams.get("error")).toBe("access_denied");

    const again = await startSignIn(partner, "https://partner.example.test/callback");
    const screen = await authorize(client, server, again.url);
    const allowAction = /action="([^"]+)"/.exec(String("page" in screen && screen.page.body))![1]!;
    const allowed = await decide(client, server, allowAction, "allow");
    if (!("left" in allowed)) throw new Error("no code after consent");
    expect((await finishSignIn(partner, allowed.left, again)).claims()?.sub).toBe(uid);
  });

  describe("tokens end with the session", () => {
    it("the app's own sign-out (revocation, RFC 7009) ends refresh, userinfo and storage", async () => {
      const { client, uid } = await parent();
      const tokens = await signInApp(client);
      await signOut(app, tokens.refresh_token!);
      expect(await refreshError(tokens.refresh_token!)).toBe("invalid_grant");
      expect(await userinfoStatus(tokens.access_token)).toBe(401);
      expect(await upload(uid, tokens.access_token)).toBe(401);
      // The site's own session in that browser is not the app's: it stays signed in.
      expect((await client.me())?.uid).toBe(uid);
    });

    it("a password change that signs out other devices ends the app's sign-in", async () => {
      const { client, uid } = await parent();
      const tokens = await signInApp(client);
      const changed = await client.post("/change-password", { currentPassword: password, newPassword: "new-kite-river-8", revokeOtherSessions: true });
      expect(changed.status).toBe(200);
      expect(await refreshError(tokens.refresh_token!)).toBe("invalid_grant");
      expect(await userinfoStatus(tokens.access_token)).toBe(401);
      expect(await upload(uid, tokens.access_token)).toBe(401);
    });

    it("the app is a device on /account/security: ending it there ends its tokens", async () => {
      const { client } = await parent();
      const tokens = await signInApp(client);
      const devices = await client.get<{ devices: Array<{ id: string; device: string }> }>("/devices");
      const appDevice = devices.body.devices.find((device) => device.id !== devices.body.devices[0]!.id);
      expect(appDevice).toBeDefined();
      expect((await client.post("/devices/end", { id: appDevice!.id })).status).toBe(200);
      expect(await refreshError(tokens.refresh_token!)).toBe("invalid_grant");
      expect(await userinfoStatus(tokens.access_token)).toBe(401);
    });

    it("operator sign-out and account deletion end the app's tokens", async () => {
      const first = await parent();
      const tokens = await signInApp(first.client);
      expect(await endSessionsOf(database().handle, first.email)).toBeGreaterThanOrEqual(2);
      expect(await refreshError(tokens.refresh_token!)).toBe("invalid_grant");
      expect(await userinfoStatus(tokens.access_token)).toBe(401);

      const second = await parent();
      const more = await signInApp(second.client);
      expect((await second.client.post("/delete-user", { password })).status).toBe(200);
      expect(await refreshError(more.refresh_token!)).toBe("invalid_grant");
      expect(await userinfoStatus(more.access_token)).toBe(401);
    });

    it("the site's storage JWT names its session and is refused once that session ends", async () => {
      const { client, uid } = await parent();
      const token = (await client.get<{ token: string }>("/token")).body.token;
      expect(decodeJwt(token).sid).toEqual(expect.any(String));
      expect(await upload(uid, token, "Firebase")).toBe(200);
      expect((await client.post("/sign-out")).status).toBe(200);
      expect(await upload(uid, token, "Firebase")).toBe(401);

      const other = await parent();
      const otherToken = (await other.client.get<{ token: string }>("/token")).body.token;
      expect(await upload(other.uid, otherToken, "Firebase")).toBe(200);
      await endSessionsOf(database().handle, other.email);
      expect(await upload(other.uid, otherToken, "Firebase")).toBe(401);
    });
  });
});
