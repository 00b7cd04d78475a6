import { afterAll, beforeAll, expect, it } from "vitest";
import * as oidc from "openid-client";
import { describeEachDatabase } from "~tests/helpers/databases";
import { discoverProvider, startSignIn } from "~tests/fixtures/reference-client";
import type { AuthTestServer } from "./auth-server";
import { authorize, startAppSignInServer } from "./app-sign-in-fixtures";
import { signedUpAccount } from "./factories";

const password = "kite-river-7";
const nativeRedirect = "tw.example.app:/callback";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `max_age` and `prompt=login` (OpenID Connect Core 3.1.2.1), through the reference client, on SQLite and
 * PostgreSQL: a sign-in older than the app allows, or any sign-in made before a `prompt=login` request, sends the
 * parent to the site's confirm-identity step (silently: login_required); once confirmed, the code comes back and
 * the ID token's `auth_time` is the time of that proof, not of the request.
 */
describeEachDatabase("app sign-in: max_age, prompt=login and auth_time", (database) => {
  let server: AuthTestServer;
  let app: oidc.Configuration;

  beforeAll(async () => {
    server = await startAppSignInServer(database());
    app = await discoverProvider({ issuer: server.baseURL, clientId: "app" });
  });
  afterAll(async () => {
    await server.close();
  });

  async function parent() {
    const { client } = await signedUpAccount(server, { prefix: "reauth", password });
    return { client, signedUpAt: Math.floor(Date.now() / 1000) };
  }

  const exchange = (returnedTo: URL, pending: Awaited<ReturnType<typeof startSignIn>>, maxAge?: number) =>
    oidc.authorizationCodeGrant(app, returnedTo, { pkceCodeVerifier: pending.codeVerifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true, maxAge });

  it("auth_time is the parent's sign-in, not the authorization request", async () => {
    const { client, signedUpAt } = await parent();
    await sleep(2_100);
    const pending = await startSignIn(app, nativeRedirect);
    const outcome = await authorize(client, server, pending.url);
    if (!("left" in outcome)) throw new Error("the app's sign-in did not come back to the app");
    const authTime = (await exchange(outcome.left, pending)).claims()!.auth_time!;
    expect(Math.abs(authTime - signedUpAt)).toBeLessThanOrEqual(1);
    expect(Math.floor(Date.now() / 1000) - authTime).toBeGreaterThanOrEqual(2);
  });

  it("max_age older than the sign-in asks the parent to confirm; then auth_time is the confirmation", async () => {
    const { client } = await parent();
    await sleep(2_100);
    const pending = await startSignIn(app, nativeRedirect, { max_age: "1" });
    const outcome = await authorize(client, server, pending.url);
    if (!("signIn" in outcome)) throw new Error("max_age did not ask the parent again");
    expect(outcome.signIn.pathname).toBe("/account/confirm-identity");
    // The page names the app by its registered name, looked up from this id.
    expect(outcome.signIn.searchParams.get("app")).toBe("app");
    const back = outcome.signIn.searchParams.get("redirectTo")!;
    expect(back).toMatch(/^\/oidc\/interaction\/[\w-]+$/);

    const confirmedAt = Math.floor(Date.now() / 1000);
    expect((await client.post("/confirm-identity", { password })).status).toBe(200);
    const after = await authorize(client, server, back);
    if (!("left" in after)) throw new Error("no code after the confirmation");
    const tokens = await exchange(after.left, pending, 1);
    expect(tokens.claims()!.auth_time).toBeGreaterThanOrEqual(confirmedAt);

    // Silently (prompt=none) a too-old sign-in is login_required, never a code.
    await sleep(2_100);
    const silent = await startSignIn(app, nativeRedirect, { max_age: "1", prompt: "none" });
    const answer = await authorize(client, server, silent.url);
    expect("left" in answer && answer.left.searchParams.get("error")).toBe("login_required");
  });

  it("prompt=login asks a signed-in parent to confirm even with a fresh provider session", async () => {
    const { client } = await parent();
    const first = await startSignIn(app, nativeRedirect);
    expect("left" in (await authorize(client, server, first.url))).toBe(true);

    // The request's start is known to the second: a sign-in in the same second counts as made for it.
    await sleep(1_100);
    const pending = await startSignIn(app, nativeRedirect, { prompt: "login" });
    const outcome = await authorize(client, server, pending.url);
    if (!("signIn" in outcome)) throw new Error("prompt=login did not ask the parent again");
    expect(outcome.signIn.pathname).toBe("/account/confirm-identity");
    await sleep(1_100);
    const confirmedAt = Math.floor(Date.now() / 1000);
    expect((await client.post("/confirm-identity", { password })).status).toBe(200);
    const after = await authorize(client, server, outcome.signIn.searchParams.get("redirectTo")!);
    if (!("left" in after)) throw new Error("no code after the confirmation");
    expect((await exchange(after.left, pending)).claims()!.auth_time).toBeGreaterThanOrEqual(confirmedAt);
  });
});
