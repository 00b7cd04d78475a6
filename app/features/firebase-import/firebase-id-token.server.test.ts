import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { firebaseIdTokenVerifier } from "./firebase-id-token.server";

const projectId = "kids-tasks-test";
let keyServer: http.Server;
let privateKey: CryptoKey;
let fetches = 0;
let maxAge = 1;

beforeAll(async () => {
  const pair = await generateKeyPair("RS256", { extractable: true });
  privateKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: "google-key-1", alg: "RS256", use: "sig" };
  // Google's key set on loopback, with the Cache-Control Google sends (its max-age chosen by each test).
  keyServer = http.createServer((_request, response) => {
    fetches += 1;
    response.writeHead(200, { "content-type": "application/json", "cache-control": `public, max-age=${maxAge}, must-revalidate, no-transform` });
    response.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => keyServer.listen(0, "127.0.0.1", resolve));
});
afterAll(() => new Promise((resolve) => keyServer.close(resolve)));

const firebaseToken = () => {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ auth_time: now - 60, firebase: { sign_in_provider: "password" } })
    .setProtectedHeader({ alg: "RS256", kid: "google-key-1" })
    .setIssuer(`https://securetoken.google.com/${projectId}`)
    .setAudience(projectId)
    .setSubject("uid-1")
    .setIssuedAt(now - 60)
    .setExpirationTime(now + 3600)
    .sign(privateKey);
};
const verifier = () => firebaseIdTokenVerifier({ projectId, jwksUrl: `http://127.0.0.1:${(keyServer.address() as AddressInfo).port}/keys` });

it("keeps Google's keys as long as their Cache-Control max-age says, then fetches them again", async () => {
  maxAge = 1;
  fetches = 0;
  const verify = verifier();
  const token = await firebaseToken();
  expect(await verify(token)).toEqual({ uid: "uid-1", signInProvider: "password" });
  expect(await verify(token)).toMatchObject({ uid: "uid-1" });
  expect(fetches).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  expect(await verify(token)).toMatchObject({ uid: "uid-1" });
  expect(fetches).toBe(2);
  expect(await verify(token)).toMatchObject({ uid: "uid-1" });
  expect(fetches).toBe(2);
});

it("fetches them once for many verifications at the same time, and not again within a long max-age", async () => {
  maxAge = 19_000;
  fetches = 0;
  const verify = verifier();
  const token = await firebaseToken();
  const answers = await Promise.all(Array.from({ length: 10 }, () => verify(token)));
  expect(answers.every((answer) => "uid" in answer)).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  expect(await verify(token)).toMatchObject({ uid: "uid-1" });
  expect(fetches).toBe(1);
});
