import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { exportJWK, generateKeyPair, SignJWT, decodeJwt } from "jose";
import { importFirebaseUsers } from "~/features/firebase-import/import-users.server";
import { metricsText } from "~/services/metrics.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAppSignInServer, testClients } from "./app-sign-in-fixtures";
import type { AuthTestServer } from "./auth-server";

/** One counter's value as `/metrics` shows it (the Prometheus text METRICS_PORT serves). */
async function metric(name: string, outcome: string) {
  const line = (await metricsText()).split("\n").find((row) => row.startsWith(`${name}{outcome="${outcome}"}`));
  return line ? Number(line.split(" ").at(-1)) : 0;
}
const projectId = "kids-tasks-test";
const exchange = "urn:ietf:params:oauth:grant-type:token-exchange";

describeEachDatabase("the Firebase token exchange", (database) => {
  let server: AuthTestServer;
  let keys: http.Server;
  let privateKey: CryptoKey;
  let otherKey: CryptoKey;
  const uid = randomBytes(21).toString("base64url").slice(0, 28);
  const lockedUid = randomBytes(21).toString("base64url").slice(0, 28);

  beforeAll(async () => {
    const pair = await generateKeyPair("RS256", { extractable: true });
    privateKey = pair.privateKey;
    otherKey = (await generateKeyPair("RS256")).privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: "google-key-1", alg: "RS256", use: "sig" };
    // Google's key set, served on loopback as Google serves it.
    keys = http.createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "cache-control": "public, max-age=19000" });
      response.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => keys.listen(0, "127.0.0.1", resolve));
    const clients = testClients.map((client) => (client.client_id === "app" ? { ...client, grant_types: ["authorization_code", "refresh_token", exchange] } : client));
    server = await startAppSignInServer(database(), {
      OIDC_CLIENTS: JSON.stringify(clients),
      FIREBASE_PROJECT_ID: projectId,
      FIREBASE_JWKS_URL: `http://127.0.0.1:${(keys.address() as AddressInfo).port}/keys`,
    });
    await importFirebaseUsers(
      database().handle,
      JSON.stringify({
        users: [
          { localId: uid, email: `exchange-${uid.slice(0, 6).toLowerCase()}@example.tw`, emailVerified: true, providerUserInfo: [{ providerId: "google.com", rawId: `g${uid}` }] },
          { localId: lockedUid, email: `locked-${uid.slice(0, 6).toLowerCase()}@example.tw`, emailVerified: true, disabled: true, providerUserInfo: [{ providerId: "google.com", rawId: `g${lockedUid}` }] },
        ],
      }),
    );
  });
  afterAll(async () => {
    await server.close();
    await new Promise((resolve) => keys.close(resolve));
  });

  const firebaseToken = (sub: string, changes: { key?: CryptoKey; iss?: string; aud?: string; exp?: number; authTime?: number } = {}) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ user_id: sub, auth_time: changes.authTime ?? now - 60, firebase: { sign_in_provider: "google.com" } })
      .setProtectedHeader({ alg: "RS256", kid: "google-key-1" })
      .setIssuer(changes.iss ?? `https://securetoken.google.com/${projectId}`)
      .setAudience(changes.aud ?? projectId)
      .setSubject(sub)
      .setIssuedAt(now - 60)
      .setExpirationTime(changes.exp ?? now + 3600)
      .sign(changes.key ?? privateKey);
  };
  const token = async (form: Record<string, string>, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.baseURL}/oidc/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(form) });
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as Record<string, string> };
  };
  const refusedRows = () =>
    database().handle.db.selectFrom("security_record").selectAll().where("event", "=", "firebase-token-exchange").where("outcome", "=", "refused").orderBy("seq").execute();
  const exchangeForm = (subjectToken: string, clientId = "app") => ({
    grant_type: exchange,
    client_id: clientId,
    subject_token: subjectToken,
    subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
    scope: "openid email offline_access",
  });

  it("trades an imported account's Firebase ID token for ours, sub = the uid (also at userinfo), counted in /metrics", async () => {
    const before = await metric("site_firebase_token_exchanges_total", "success");
    const answer = await token(exchangeForm(await firebaseToken(uid)));
    expect(await metric("site_firebase_token_exchanges_total", "success")).toBe(before + 1);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(decodeJwt(answer.body.id_token!).sub).toBe(uid);
    expect(answer.body.access_token).toBeTruthy();
    const userinfo = await fetch(`${server.baseURL}/oidc/me`, { headers: { authorization: `Bearer ${answer.body.access_token}` } });
    expect(((await userinfo.json()) as { sub: string }).sub).toBe(uid);
  });

  it("answers a refresh token for offline_access, and that refresh token works at the token endpoint", async () => {
    const answer = await token(exchangeForm(await firebaseToken(uid)));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.refresh_token, JSON.stringify(answer.body)).toBeTruthy();
    const refreshed = await token({ grant_type: "refresh_token", client_id: "app", refresh_token: answer.body.refresh_token! });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(decodeJwt(refreshed.body.id_token!).sub).toBe(uid);
    // Rotated like every refresh token: a new one, and the access token it gives opens userinfo.
    expect(refreshed.body.refresh_token).toBeTruthy();
    expect(refreshed.body.refresh_token).not.toBe(answer.body.refresh_token);
    const userinfo = await fetch(`${server.baseURL}/oidc/me`, { headers: { authorization: `Bearer ${refreshed.body.access_token}` } });
    expect(((await userinfo.json()) as { sub: string }).sub).toBe(uid);
    // Without offline_access, none.
    const online = await token({ ...exchangeForm(await firebaseToken(uid)), scope: "openid email" });
    expect(online.status).toBe(200);
    expect(online.body.refresh_token).toBeUndefined();
  });

  it("refuses a forged, foreign, expired or future token, an account not imported, a locked one, and an app not registered for it", async () => {
    const now = Math.floor(Date.now() / 1000);
    const refusals = [
      await firebaseToken(uid, { key: otherKey }),
      await firebaseToken(uid, { iss: "https://securetoken.google.com/another-project" }),
      await firebaseToken(uid, { aud: "another-project" }),
      await firebaseToken(uid, { exp: now - 10 }),
      await firebaseToken(uid, { authTime: now + 3600 }),
      await firebaseToken("never-imported-uid"),
      await firebaseToken(lockedUid),
      "not.a.token",
    ];
    for (const subjectToken of refusals) {
      const answer = await token(exchangeForm(subjectToken));
      expect(answer, subjectToken.slice(-12)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    }
    const recorded = await database().handle.db.selectFrom("security_record").select("event").where("event", "=", "firebase-token-exchange").where("outcome", "=", "refused").execute();
    expect(recorded.length).toBeGreaterThanOrEqual(refusals.length);
    // An app not registered for the grant: unauthorized_client (RFC 6749 5.2).
    const partner = await fetch(`${server.baseURL}/oidc/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from("partner:partner-secret-0123456789abcdef-0123456789").toString("base64")}` },
      body: new URLSearchParams({ ...exchangeForm(await firebaseToken(uid), "partner") }),
    });
    expect(partner.status).toBe(400);
    expect(((await partner.json()) as { error: string }).error).toBe("unauthorized_client");
  });

  it("writes one security record row per refusal, naming the app and the reason, and counts it in /metrics", async () => {
    const before = await refusedRows();
    const counted = await metric("site_firebase_token_exchanges_total", "refused");
    const answer = await token(exchangeForm(await firebaseToken("never-imported-uid")));
    expect(answer.body.error).toBe("invalid_grant");
    expect(await metric("site_firebase_token_exchanges_total", "refused")).toBe(counted + 1);
    const after = await refusedRows();
    expect(after.length).toBe(before.length + 1);
    const row = after.find((one) => !before.some((old) => old.seq === one.seq))!;
    expect(row).toMatchObject({ code: "invalid_grant" });
    expect(JSON.parse(String(row.detail))).toEqual({ app: "app", reason: "not an imported account" });
  });

  it("refused exchanges from one address get 429 with Retry-After past the sign-in limit (30 a minute)", async () => {
    // Its own addresses (the test server trusts X-Forwarded-For from loopback), so other tests are not limited.
    const address = (last: number) => `${database().handle.dialect === "postgres" ? "203.0.113" : "198.51.100"}.${last}`;
    const limitedAddress = address(Math.floor(Math.random() * 120) + 1);
    const subjectToken = await firebaseToken(uid);
    // Successes are not counted.
    for (let attempt = 0; attempt < 3; attempt += 1) expect((await token(exchangeForm(subjectToken), { "x-forwarded-for": limitedAddress })).status).toBe(200);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 33; attempt += 1) statuses.push((await token(exchangeForm("not.a.token"), { "x-forwarded-for": limitedAddress })).status);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(400));
    expect(statuses.slice(30)).toEqual([429, 429, 429]);
    // Past the limit even a good token waits.
    const limited = await token(exchangeForm(subjectToken), { "x-forwarded-for": limitedAddress });
    expect(limited).toMatchObject({ status: 429, body: { error: "too_many_requests" } });
    expect(limited.retryAfter).toMatch(/^\d+$/);
    expect(await metric("site_firebase_token_exchanges_total", "limited")).toBeGreaterThanOrEqual(4);
    // Another address is not limited.
    expect((await token(exchangeForm(subjectToken), { "x-forwarded-for": address(Math.floor(Math.random() * 120) + 130) })).status).toBe(200);
  });
});
