import fs from "node:fs";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Configuration } from "openid-client";
import { authenticatorApp } from "~tests/helpers/authenticator-app";
import { describeEachDatabase } from "~tests/helpers/databases";
import { discoverProvider, finishSignIn, startSignIn, type TokenSet } from "~tests/fixtures/reference-client";
import type { AuthTestClient, AuthTestServer } from "./auth-server";
import { authorize, startAppSignInServer } from "./app-sign-in-fixtures";
import { nativeRedirect, verifiedAccountSignedIn } from "./factories";

const password = "kite-river-7";
const api = "https://api.example.test/";
const guide = fs.readFileSync("docs/app-integration.md", "utf8");
/** The guide's text from the heading `title` to the next heading of the same level. */
const part = (title: string) => {
  const start = guide.indexOf(`## ${title}`);
  if (start < 0) throw new Error(`the guide has no section ${title}`);
  const end = guide.indexOf("\n## ", start + 3);
  return guide.slice(start, end < 0 ? undefined : end);
};

/**
 * docs/app-integration.md read against the live provider (issue 41.8), on SQLite and PostgreSQL: every endpoint it
 * names is the one discovery gives, every claim its table names is one the provider supports, and each statement
 * an app developer acts on — a silent request with offline_access, `amr` after a password and a code, a refresh
 * token with `resource`, the issuer without a trailing slash — is what the provider does.
 */
describeEachDatabase("the app developer's guide against the provider", (database) => {
  let server: AuthTestServer;
  let app: Configuration;

  beforeAll(async () => {
    server = await startAppSignInServer(database(), { OIDC_RESOURCES: api });
    app = await discoverProvider({ issuer: server.baseURL, clientId: "app" });
  });
  afterAll(async () => {
    await server.close();
  });

  async function signedInParent() {
    const { browser, client: enrolling, email } = await verifiedAccountSignedIn(server, { prefix: "guide", password });
    return { browser, enrolling, email };
  }

  async function signInApp(browser: AuthTestClient, extra: Record<string, string> = {}, tokenParameters?: Record<string, string>): Promise<TokenSet> {
    const pending = await startSignIn(app, nativeRedirect, { scope: "openid email profile offline_access storage", ...extra });
    const outcome = await authorize(browser, server, pending.url);
    if (!("left" in outcome)) throw new Error(`the app's sign-in stopped at ${JSON.stringify(outcome)}`);
    return finishSignIn(app, outcome.left, pending, tokenParameters);
  }

  it("names the endpoints discovery gives, and only claims the provider supports", () => {
    const metadata = app.serverMetadata();
    const discovery = part("Discovery");
    const named: Record<string, string> = {
      authorization: "authorization_endpoint",
      token: "token_endpoint",
      userinfo: "userinfo_endpoint",
      keys: "jwks_uri",
      revocation: "revocation_endpoint",
      introspection: "introspection_endpoint",
      "end session": "end_session_endpoint",
    };
    for (const [words, field] of Object.entries(named)) {
      const path = new RegExp(`${words.replace(" ", "\\s+")}\\s+\`(/oidc/[\\w/]+)\``).exec(discovery)?.[1];
      expect(path, `the guide names the ${words} endpoint`).toBeDefined();
      expect(metadata[field], field).toBe(`${server.baseURL}${path}`);
    }
    expect(discovery).toContain("/.well-known/openid-configuration`");
    expect(metadata.response_types_supported).toEqual(["code"]);
    expect(metadata.response_modes_supported).toEqual(["query", "form_post"]);
    expect(metadata.code_challenge_methods_supported).toEqual(["S256"]);
    expect(metadata.acr_values_supported).toEqual(["urn:taskhero:acr:basic", "urn:taskhero:acr:mfa"]);
    expect(metadata).toMatchObject({ backchannel_logout_supported: true, backchannel_logout_session_supported: true });

    // Every claim of the ID token table is one the provider says it supports.
    const table = part("Signing in").concat(part("Verifying a token offline"), guide.slice(guide.indexOf("| claim | meaning |")));
    const claims = [...table.matchAll(/^\| `(\w+)`(?:, `(\w+)`)? \|/gm)].flatMap((row) => [row[1], row[2]].filter((claim): claim is string => Boolean(claim)));
    expect(claims).toEqual(expect.arrayContaining(["sub", "email", "email_verified", "name", "picture", "sid", "auth_time", "amr", "acr"]));
    for (const claim of claims) expect(metadata.claims_supported, claim).toContain(claim);
  });

  it("answers a native app's silent request as step 3 says: a code at first, then interaction_required", async () => {
    expect(part("Signing in")).toMatch(/`error=interaction_required` \(`native clients require End-User interaction`\)/);
    const { browser } = await signedInParent();
    // The provider does not know this parent yet: a code, and no refresh token.
    const first = await startSignIn(app, nativeRedirect, { scope: "openid offline_access", prompt: "none" });
    const coded = await authorize(browser, server, first.url);
    if (!("left" in coded)) throw new Error(`a silent request stopped at ${JSON.stringify(coded)}`);
    expect(coded.left.searchParams.get("error"), coded.left.search).toBeNull();
    expect((await finishSignIn(app, coded.left, first)).refresh_token).toBeUndefined();
    // Asked silently again, with offline_access or without: interaction_required.
    for (const scope of ["openid offline_access", "openid"]) {
      const again = await startSignIn(app, nativeRedirect, { scope, prompt: "none" });
      const answer = await authorize(browser, server, again.url);
      if (!("left" in answer)) throw new Error(`a silent request stopped at ${JSON.stringify(answer)}`);
      expect(answer.left.searchParams.get("error"), scope).toBe("interaction_required");
      expect(answer.left.searchParams.get("error_description")).toBe("native clients require End-User interaction");
    }
    // Signed out of the site, silently: login_required.
    const signedOut = await startSignIn(app, nativeRedirect, { prompt: "none" });
    const refused = await authorize(server.client(), server, signedOut.url);
    expect("left" in refused && refused.left.searchParams.get("error")).toBe("login_required");
  });

  it("says amr as the table does: pwd for a password, otp and mfa without pwd for a password and a code", async () => {
    expect(guide).toMatch(/`pwd` a password alone; `otp` `mfa` a password followed by a code[^|]*no `pwd` beside them/);
    const { browser, enrolling, email } = await signedInParent();
    expect((await signInApp(browser)).claims()).toMatchObject({ amr: ["pwd"], acr: "urn:taskhero:acr:basic" });
    const enabled = await enrolling.post<{ totpURI: string }>("/two-factor/enable", { password });
    const authenticator = authenticatorApp(enabled.body.totpURI);
    expect((await enrolling.post("/two-factor/verify-totp", { code: await authenticator() })).status).toBe(200);
    const twoSteps = server.client();
    expect((await twoSteps.post("/sign-in/email", { email, password })).body).toMatchObject({ twoFactorRedirect: true });
    expect((await twoSteps.post("/two-factor/verify-totp", { code: await authenticator() })).status).toBe(200);
    expect((await signInApp(twoSteps)).claims()!.amr).toEqual(["otp", "mfa"]);
  });

  it("gives a refresh token with resource though the answer's scope leaves offline_access out, as step 4 says", async () => {
    expect(part("Signing in")).toMatch(/with\s+`resource`[^]*`scope` lists only the API's scopes, without\s+`offline_access`, and the refresh token comes all the same/);
    const { browser } = await signedInParent();
    const withResource = await signInApp(browser, { resource: api }, { resource: api });
    expect(withResource.scope?.split(" ")).not.toContain("offline_access");
    expect(typeof withResource.refresh_token).toBe("string");
    const plain = await signInApp(browser);
    expect(plain.scope?.split(" ")).toContain("offline_access");
    expect(typeof plain.refresh_token).toBe("string");
  });

  it("issues iss without a trailing slash: jose takes the discovery's issuer and refuses new URL(issuer).href", async () => {
    expect(guide).toContain("`new URL(\"https://example.tw\").href` is `https://example.tw/`");
    const issuer = app.serverMetadata().issuer;
    expect(issuer.endsWith("/")).toBe(false);
    const { browser } = await signedInParent();
    const tokens = await signInApp(browser);
    const keys = createRemoteJWKSet(new URL(app.serverMetadata().jwks_uri!));
    expect((await jwtVerify(tokens.id_token!, keys, { issuer, audience: "app" })).payload.iss).toBe(issuer);
    await expect(jwtVerify(tokens.id_token!, keys, { issuer: new URL(issuer).href, audience: "app" })).rejects.toMatchObject({ code: "ERR_JWT_CLAIM_VALIDATION_FAILED", claim: "iss" });
  });

  it("registers apps from OIDC_CLIENTS at start, not at build: the guide says a restart, no rebuild", () => {
    expect(part("Registering an app")).toMatch(/then a restart: no\s+rebuild/);
    // This server was started with the test apps in its environment, from the same build: they are registered.
    expect(app.serverMetadata().issuer).toBe(server.baseURL);
  });
});
