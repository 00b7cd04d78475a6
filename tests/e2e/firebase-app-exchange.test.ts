import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { discoverProvider } from "~tests/fixtures/reference-client";
import { launchServer, type LaunchedServer } from "~tests/helpers/launch-server.mjs";
import { e2ePort } from "./setup/server";

/**
 * An installed app stays signed in across the switch (issue 40), on the built site as an operator starts it: the
 * family's account imported with `npm run import:firebase`, the app registered for the token exchange, Google's
 * key set served on loopback. The reference client (openid-client, as docs/app-integration.md shows it) trades the
 * Firebase ID token it holds for ours, calls userinfo and refreshes; a forged token and an account not imported are
 * refused with invalid_grant.
 */
const projectId = "kids-tasks-e2e";
const exchange = "urn:ietf:params:oauth:grant-type:token-exchange";
const clientId = "e2e-exchange-app";

describe("the app's Firebase sign-in traded for ours", () => {
  let site: LaunchedServer;
  let keys: http.Server;
  let googleKey: CryptoKey;
  let client: oidc.Configuration;
  const uid = randomBytes(21).toString("base64url").slice(0, 28);

  beforeAll(async () => {
    const pair = await generateKeyPair("RS256", { extractable: true });
    googleKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: "google-key-1", alg: "RS256", use: "sig" };
    keys = http.createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "cache-control": "public, max-age=19000" });
      response.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => keys.listen(0, "127.0.0.1", resolve));
    site = await launchServer({
      port: e2ePort + 9,
      buildDir: process.env.BUILD_DIR || "build-test",
      env: {
        FIREBASE_PROJECT_ID: projectId,
        FIREBASE_JWKS_URL: `http://127.0.0.1:${(keys.address() as AddressInfo).port}/keys`,
        OIDC_CLIENTS: JSON.stringify([
          { client_id: clientId, client_name: "任務小勇士 App", first_party: true, public: true, redirect_uris: ["http://127.0.0.1/callback"], grant_types: ["authorization_code", "refresh_token", exchange] },
        ]),
      },
      timeoutMs: 60_000,
    });
    // The family's Firebase account, imported into the running site's data as the runbook says.
    const file = path.join(site.dataDir, "users.json");
    fs.writeFileSync(file, JSON.stringify({ users: [{ localId: uid, email: `app-${uid.slice(0, 6).toLowerCase()}@example.tw`, emailVerified: true, providerUserInfo: [{ providerId: "google.com", rawId: `g${uid}` }] }] }));
    const imported = spawnSync(process.execPath, ["scripts/import-firebase.mjs", "--users", file], {
      env: { ...process.env, NODE_ENV: "production", DATA_DIR: site.dataDir, DATABASE_URL: "", BUILD_DIR: process.env.BUILD_DIR || "build-test" },
      encoding: "utf8",
    });
    expect(imported.status, imported.stderr).toBe(0);
    fs.rmSync(file);
    client = await discoverProvider({ issuer: site.origin, clientId });
  }, 120_000);
  afterAll(async () => {
    await site?.stop();
    await new Promise((resolve) => keys?.close(resolve));
    if (site) fs.rmSync(site.dataDir, { recursive: true, force: true });
  });

  /** A Firebase ID token as the app holds it (Google's securetoken issuer, the project as audience). */
  const firebaseIdToken = (sub: string, key = googleKey) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ user_id: sub, auth_time: now - 60, firebase: { sign_in_provider: "google.com" } })
      .setProtectedHeader({ alg: "RS256", kid: "google-key-1" })
      .setIssuer(`https://securetoken.google.com/${projectId}`)
      .setAudience(projectId)
      .setSubject(sub)
      .setIssuedAt(now - 60)
      .setExpirationTime(now + 3600)
      .sign(key);
  };
  const trade = async (subjectToken: string) =>
    oidc.genericGrantRequest(client, exchange, {
      subject_token: subjectToken,
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      scope: "openid email offline_access",
    });

  it("trades the Firebase ID token for ours (sub = the Firebase uid, at userinfo too), then refreshes", async () => {
    const tokens = await trade(await firebaseIdToken(uid));
    expect(tokens.claims()?.sub).toBe(uid);
    expect(tokens.refresh_token).toBeTruthy();
    expect(((await oidc.fetchUserInfo(client, tokens.access_token, uid)) as { sub: string }).sub).toBe(uid);
    const refreshed = await oidc.refreshTokenGrant(client, tokens.refresh_token!);
    expect(refreshed.access_token).toBeTruthy();
    expect(refreshed.access_token).not.toBe(tokens.access_token);
  });

  it("refuses a token signed by another key and one for an account that was not imported, with invalid_grant", async () => {
    const forged = await firebaseIdToken(uid, (await generateKeyPair("RS256")).privateKey);
    const stranger = await firebaseIdToken(randomBytes(21).toString("base64url").slice(0, 28));
    for (const subjectToken of [forged, stranger]) {
      await expect(trade(subjectToken)).rejects.toMatchObject({ error: "invalid_grant" });
    }
  });
});
