import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Configuration } from "openid-client";
import { authenticatorApp } from "~tests/helpers/authenticator-app";
import { describeEachDatabase } from "~tests/helpers/databases";
import { discoverProvider, finishSignIn, signOut, startSignIn, type TokenSet } from "~tests/fixtures/reference-client";
import type { AuthTestClient, AuthTestServer } from "./auth-server";
import { authorize, startAppSignInServer, testClients } from "./app-sign-in-fixtures";
import { multipart, png } from "./storage-fixtures";
import { nativeRedirect, verifiedAccountSignedIn } from "./factories";

const password = "kite-river-7";
const api = "https://api.example.test/";
const backendSecret = "backend-secret-0123456789abcdef-0123456789";
const twoStep = "urn:taskhero:acr:mfa";


/**
 * What an app's backend relies on (decision 190), through the reference client and `jose` on a real server, on
 * SQLite and PostgreSQL: JWT access tokens for a registered API (RFC 9068) verified offline against the
 * provider's keys and refused for another audience, introspection (RFC 7662) of the opaque ones for an
 * authenticated client only, and `amr`/`acr` in the ID token with `acr_values` asking for two steps honoured.
 */
describeEachDatabase("app sign-in: tokens an app's backend relies on", (database) => {
  let server: AuthTestServer;
  let app: Configuration;

  beforeAll(async () => {
    const clients = [...testClients, { client_id: "backend", client_name: "App 後端", redirect_uris: ["https://backend.example.test/unused"], public: false, first_party: true }];
    server = await startAppSignInServer(database(), { OIDC_CLIENTS: JSON.stringify(clients), OIDC_CLIENT_SECRET_BACKEND: backendSecret, OIDC_RESOURCES: api });
    app = await discoverProvider({ issuer: server.baseURL, clientId: "app" });
  });
  afterAll(async () => {
    await server.close();
  });

  async function verifiedParent() {
    const { browser, client: enrolling, email } = await verifiedAccountSignedIn(server, { prefix: "tokens", password });
    return { browser, enrolling, email };
  }

  /** The app's sign-in for a browser signed in on the site; `extra` joins the authorization request. */
  async function signInApp(browser: AuthTestClient, extra: Record<string, string> = {}, tokenParameters?: Record<string, string>): Promise<TokenSet> {
    const pending = await startSignIn(app, nativeRedirect, { scope: "openid email profile offline_access storage", ...extra });
    const outcome = await authorize(browser, server, pending.url);
    if (!("left" in outcome)) throw new Error(`the app's sign-in stopped at ${JSON.stringify(outcome)}`);
    return finishSignIn(app, outcome.left, pending, tokenParameters);
  }

  const introspect = async (token: string, auth: string | null) => {
    const response = await fetch(`${server.baseURL}/oidc/token/introspection`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...(auth ? { authorization: auth } : {}) },
      body: new URLSearchParams(auth ? { token } : { token, client_id: "app" }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

  it("advertises introspection, the acr values, back-channel logout and only the response modes it serves", () => {
    const metadata = app.serverMetadata();
    expect(metadata.introspection_endpoint).toBe(`${server.baseURL}/oidc/token/introspection`);
    expect(metadata.acr_values_supported).toEqual(["urn:taskhero:acr:basic", twoStep]);
    expect(metadata).toMatchObject({ backchannel_logout_supported: true, backchannel_logout_session_supported: true });
    expect(metadata.response_modes_supported).toEqual(["query", "form_post"]);
  });

  it("gives a JWT access token for the registered API that jose verifies offline, and refuses it for another audience", async () => {
    const { browser } = await verifiedParent();
    const tokens = await signInApp(browser, { resource: api }, { resource: api });
    const keys = createRemoteJWKSet(new URL(app.serverMetadata().jwks_uri!));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, keys, { issuer: server.baseURL, audience: api, typ: "at+jwt" });
    const idToken = tokens.claims()!;
    expect(protectedHeader.typ).toBe("at+jwt");
    expect(payload).toMatchObject({ sub: idToken.sub, client_id: "app", aud: api, sid: idToken.sid });
    expect(String(payload.scope).split(" ").sort()).toEqual(["email", "profile", "storage"]);
    expect(typeof idToken.sid).toBe("string");

    // The same token checked by an API that expects another audience is refused.
    await expect(jwtVerify(tokens.access_token, keys, { issuer: server.baseURL, audience: "https://other-api.example.test/" })).rejects.toMatchObject({
      code: "ERR_JWT_CLAIM_VALIDATION_FAILED",
      claim: "aud",
    });
    // Its audience is the API: storage and userinfo, which take the opaque token, refuse it.
    const objectPath = `users/${idToken.sub}/jwt.png`;
    const { body, headers } = multipart(objectPath, await png());
    const upload = await fetch(`${server.baseURL}/v0/b/default/o?name=${encodeURIComponent(objectPath)}`, {
      method: "POST",
      headers: { ...headers, authorization: `Bearer ${tokens.access_token}` },
      body,
    });
    expect(upload.status).toBe(401);
  });

  it("refuses an API that is not registered (invalid_target)", async () => {
    const { browser } = await verifiedParent();
    const pending = await startSignIn(app, nativeRedirect, { resource: "https://unknown-api.example.test/" });
    const outcome = await authorize(browser, server, pending.url);
    expect("left" in outcome && outcome.left.searchParams.get("error")).toBe("invalid_target");
  });

  it("introspects opaque tokens for an authenticated client only, and answers inactive once the app signed out", async () => {
    const { browser } = await verifiedParent();
    const tokens = await signInApp(browser);
    const idToken = tokens.claims()!;
    const seen = await introspect(tokens.access_token, basic("backend", backendSecret));
    expect(seen).toMatchObject({ status: 200, body: { active: true, sub: idToken.sub, client_id: "app", sid: idToken.sid, token_type: "Bearer" } });
    // A public app proves nothing; a partner's secret opens only the partner's own tokens.
    expect((await introspect(tokens.access_token, null)).body).toEqual({ active: false });
    expect((await introspect(tokens.access_token, basic("partner", "partner-secret-0123456789abcdef-0123456789"))).body).toEqual({ active: false });
    expect((await introspect(tokens.access_token, basic("backend", "wrong-secret"))).status).toBe(401);

    await signOut(app, tokens.refresh_token!);
    expect((await introspect(tokens.access_token, basic("backend", backendSecret))).body).toEqual({ active: false });
  });

  it("says in the ID token how the parent signed in: a password (pwd), two steps (otp, mfa)", async () => {
    const { browser, enrolling, email } = await verifiedParent();
    const byPassword = (await signInApp(browser)).claims()!;
    expect(byPassword).toMatchObject({ amr: ["pwd"], acr: "urn:taskhero:acr:basic" });

    const enabled = await enrolling.post<{ totpURI: string }>("/two-factor/enable", { password });

    const authenticator = authenticatorApp(enabled.body.totpURI);
    expect((await enrolling.post("/two-factor/verify-totp", { code: await authenticator() })).status).toBe(200);
    const twoSteps = server.client();
    expect((await twoSteps.post("/sign-in/email", { email, password })).body).toMatchObject({ twoFactorRedirect: true });
    expect((await twoSteps.post("/two-factor/verify-totp", { code: await authenticator() })).status).toBe(200);
    expect((await signInApp(twoSteps)).claims()).toMatchObject({ amr: ["otp", "mfa"], acr: twoStep });
  });

  it("an essential acr in the claims parameter (OpenID Connect Core 5.5.1.1) is honoured like acr_values: met, stepped up or refused", async () => {
    const essential = (values: string[]) => ({ claims: JSON.stringify({ id_token: { acr: { essential: true, values } } }) });
    // No second factor on the account: unmet_authentication_requirements, and silently login_required; never a code.
    const { browser: oneStep } = await verifiedParent();
    const refused = await authorize(oneStep, server, (await startSignIn(app, nativeRedirect, essential([twoStep]))).url);
    expect("left" in refused && refused.left.searchParams.get("error")).toBe("unmet_authentication_requirements");
    const silent = await authorize(oneStep, server, (await startSignIn(app, nativeRedirect, { ...essential([twoStep]), prompt: "none" })).url);
    expect("left" in silent && silent.left.searchParams.get("error")).toBe("login_required");
    // One `value` rather than `values`, and a class the site does not have: refused too.
    const single = await authorize(oneStep, server, (await startSignIn(app, nativeRedirect, { claims: JSON.stringify({ id_token: { acr: { essential: true, value: twoStep } } }) })).url);
    expect("left" in single && single.left.searchParams.get("error")).toBe("unmet_authentication_requirements");
    const unknown = await authorize(oneStep, server, (await startSignIn(app, nativeRedirect, essential(["urn:example:loa:4"]))).url);
    expect("left" in unknown && unknown.left.searchParams.get("error")).toBe("unmet_authentication_requirements");
    // The basic class asked as essential is met by the password session; other claims asked for change nothing.
    const basicClaims = JSON.stringify({ id_token: { acr: { essential: true, values: ["urn:taskhero:acr:basic"] }, email: { essential: true } }, userinfo: { picture: null } });
    expect((await signInApp(oneStep, { claims: basicClaims })).claims()).toMatchObject({ acr: "urn:taskhero:acr:basic", amr: ["pwd"] });

    // Two-step sign-in on, a trusted device's password session: sent to prove a code, then the code has acr mfa.
    const { enrolling, email } = await verifiedParent();
    const enabled = await enrolling.post<{ totpURI: string }>("/two-factor/enable", { password });
    const authenticator = authenticatorApp(enabled.body.totpURI);
    expect((await enrolling.post("/two-factor/verify-totp", { code: await authenticator() })).status).toBe(200);
    const trusted = server.client();
    await trusted.post("/sign-in/email", { email, password });
    expect((await trusted.post("/two-factor/verify-totp", { code: await authenticator(), trustDevice: true })).status).toBe(200);
    expect((await trusted.post("/sign-out")).status).toBe(200);
    expect((await trusted.post("/sign-in/email", { email, password })).body).not.toMatchObject({ twoFactorRedirect: true });
    const stepUp = await startSignIn(app, nativeRedirect, essential([twoStep]));
    const sent = await authorize(trusted, server, stepUp.url);
    if (!("signIn" in sent)) throw new Error(`the parent was not asked for a second step: ${JSON.stringify(sent)}`);
    expect(sent.signIn.pathname).toBe("/account/confirm-identity");
    expect(sent.signIn.searchParams.get("proof")).toBe("two-step");
    expect((await trusted.post("/two-factor/verify-totp", { code: await authenticator() })).status).toBe(200);
    const back = await authorize(trusted, server, sent.signIn.searchParams.get("redirectTo")!);
    if (!("left" in back)) throw new Error("the app's sign-in did not come back after the second step");
    expect((await finishSignIn(app, back.left, stepUp)).claims()).toMatchObject({ amr: ["otp", "mfa"], acr: twoStep });
    // A two-step session asked for the basic class as essential: the ID token names the class asked for.
    expect((await signInApp(trusted, essential(["urn:taskhero:acr:basic"]))).claims()).toMatchObject({ acr: "urn:taskhero:acr:basic", amr: ["otp", "mfa"] });
  });

  it("acr_values asking for two steps: a one-step session proves a code first, or the app gets an error, never less", async () => {
    // No second factor on the account: the app hears why.
    const { browser: oneStep } = await verifiedParent();
    const pending = await startSignIn(app, nativeRedirect, { acr_values: twoStep });
    const refused = await authorize(oneStep, server, pending.url);
    expect("left" in refused && refused.left.searchParams.get("error")).toBe("unmet_authentication_requirements");
    const silent = await startSignIn(app, nativeRedirect, { acr_values: twoStep, prompt: "none" });
    const silentAnswer = await authorize(oneStep, server, silent.url);
    expect("left" in silentAnswer && silentAnswer.left.searchParams.get("error")).toBe("login_required");

    // Two-step sign-in on, but this device is trusted, so its session was made by the password alone.
    const { enrolling, email } = await verifiedParent();
    const enabled = await enrolling.post<{ totpURI: string }>("/two-factor/enable", { password });
    const authenticator = authenticatorApp(enabled.body.totpURI);
    expect((await enrolling.post("/two-factor/verify-totp", { code: await authenticator() })).status).toBe(200);
    const trusted = server.client();
    await trusted.post("/sign-in/email", { email, password });
    expect((await trusted.post("/two-factor/verify-totp", { code: await authenticator(), trustDevice: true })).status).toBe(200);
    expect((await trusted.post("/sign-out")).status).toBe(200);
    expect((await trusted.post("/sign-in/email", { email, password })).body).not.toMatchObject({ twoFactorRedirect: true });
    expect((await signInApp(trusted)).claims()).toMatchObject({ amr: ["pwd"], acr: "urn:taskhero:acr:basic" });

    const stepUp = await startSignIn(app, nativeRedirect, { acr_values: twoStep });
    const sent = await authorize(trusted, server, stepUp.url);
    if (!("signIn" in sent)) throw new Error("the parent was not asked for a second step");
    expect(sent.signIn.pathname).toBe("/account/confirm-identity");
    expect(sent.signIn.searchParams.get("proof")).toBe("two-step");
    // The code, typed on the site while signed in, renews the session as a two-step one; the app's sign-in goes on.
    expect((await trusted.post("/two-factor/verify-totp", { code: await authenticator() })).status).toBe(200);
    const back = await authorize(trusted, server, sent.signIn.searchParams.get("redirectTo")!);
    if (!("left" in back)) throw new Error("the app's sign-in did not come back after the second step");
    const claims = (await finishSignIn(app, back.left, stepUp)).claims()!;
    expect(claims).toMatchObject({ amr: ["otp", "mfa"], acr: twoStep });
    expect(decodeJwt((await signInApp(trusted, { acr_values: twoStep })).id_token!).acr).toBe(twoStep);
  });
});
