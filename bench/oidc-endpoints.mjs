// The app-facing endpoints of the site's OpenID provider at 50 connections: discovery and JWKS (to be answered
// from memory), userinfo (target ≥ 3,000 req/s) and token refresh (≥ 1,000 req/s; issue 30, per 2-core instance),
// each beside /healthz of the same site measured in the same run.
//   npm run build && node bench/oidc-endpoints.mjs       (BUILD_DIR, BENCH_PORT, BENCH_SECONDS)
// starts the built site with a confidential test app (OIDC_CLIENTS) and gets its tokens through the real flow:
// 50 parents sign up, each signs the app in (authorization code with PKCE), and the first one's access token is
// used for userinfo. Against a site already running instead:
//   OIDC_ISSUER=https://example.org node bench/oidc-endpoints.mjs
// Optional there, for the endpoints that need a sign-in (get them with the reference client's flow):
//   OIDC_ACCESS_TOKEN=…                      userinfo
//   OIDC_CLIENT_ID=… [OIDC_CLIENT_SECRET=…]  and OIDC_REFRESH_TOKENS_FILE=<one refresh token per line, ≥ 50>
// Refresh tokens rotate (reusing one ends the grant), so each of the 50 connections follows its own chain.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import { URLSearchParams } from "node:url";
import { launchServer } from "../tests/helpers/launch-server.mjs";
import { basePort, buildDir, load, row, runAlone, seconds } from "./lib.mjs";

const chains = 50;
const target = (rps, goal) => ({ target: `≥ ${goal.toLocaleString("en")} req/s`, met: rps >= goal });

/** The client's credentials for the token endpoint: HTTP Basic for a confidential client, else its id in the form. */
export function clientAuthentication({ id, secret }) {
  if (!secret) return { headers: {}, form: { client_id: id } };
  const basic = Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64");
  return { headers: { authorization: `Basic ${basic}` }, form: {} };
}

/** Refreshes along `tokens.length` chains for `seconds`: requests per second and p99 in ms. */
export async function refreshLoad(tokenEndpoint, client, tokens) {
  const credentials = clientAuthentication(client);
  const headers = { "content-type": "application/x-www-form-urlencoded", ...credentials.headers };
  const latencies = [];
  let failed = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(tokens.map(async (first) => {
    let token = first;
    while (Date.now() < until) {
      const body = new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, ...credentials.form });
      const started = performance.now();
      const answer = await fetch(tokenEndpoint, { method: "POST", headers, body });
      latencies.push(performance.now() - started);
      if (!answer.ok) {
        failed += 1;
        return;
      }
      token = (await answer.json()).refresh_token ?? token;
    }
  }));
  if (failed) throw new Error(`${failed} refreshes failed (a used token, or fewer tokens than chains)`);
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / seconds, p99: Math.round(latencies[Math.floor(latencies.length * 0.99)] ?? 0) };
}

/** What the measurements need: the issuer, and what of the signed-in endpoints' inputs is at hand. */
function givenByHand() {
  const tokensFile = process.env.OIDC_REFRESH_TOKENS_FILE;
  const clientId = process.env.OIDC_CLIENT_ID;
  return {
    issuer: process.env.OIDC_ISSUER,
    accessToken: process.env.OIDC_ACCESS_TOKEN,
    client: clientId ? { id: clientId, secret: process.env.OIDC_CLIENT_SECRET } : undefined,
    refreshTokens: tokensFile && clientId
      ? fs.readFileSync(tokensFile, "utf8").split("\n").map((line) => line.trim()).filter(Boolean).slice(0, chains)
      : undefined,
  };
}

export const benchClient = { id: "bench-app", secret: randomBytes(24).toString("base64url"), redirectUri: "http://127.0.0.1/callback" };
// Shares no word with the accounts' emails (the context-word rule refuses such passwords).
const password = "tide-lantern-47";

/**
 * One parent signs up and signs the test app in, as a browser and the app would: the authorization request with
 * the site's session cookie, its redirects (the site's sign-in interaction) up to the app's redirect URI, then
 * the code exchanged at the token endpoint. Each parent comes from an address of its own (TRUSTED_PROXIES), so
 * the per-address limits count families, not the benchmark.
 */
export async function signInApp(origin, discovery, index) {
  const jar = new Map();
  const address = `10.77.${index >> 8}.${index & 255}`;
  const send = async (url, init = {}) => {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const answer = await fetch(url, { ...init, redirect: "manual", headers: { "x-forwarded-for": address, ...(cookie ? { cookie } : {}), ...init.headers } });
    for (const line of answer.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at).trim(), pair.slice(at + 1));
    }
    return answer;
  };
  const email = `oidc-bench-${Date.now().toString(36)}-${index}@example.tw`;
  const signUp = await send(`${origin}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email, password, name: "bench" }),
  });
  if (signUp.status !== 200) throw new Error(`sign-up answered ${signUp.status}: ${await signUp.text()}`);

  const verifier = randomBytes(32).toString("base64url");
  let next = `${discovery.authorization_endpoint}?${new URLSearchParams({
    client_id: benchClient.id,
    response_type: "code",
    redirect_uri: benchClient.redirectUri,
    scope: "openid email offline_access",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    state: `bench-${index}`,
  })}`;
  for (let hop = 0; hop < 10 && next.startsWith(origin); hop += 1) {
    const answer = await send(next);
    await answer.body?.cancel();
    const location = answer.headers.get("location");
    if (answer.status < 300 || answer.status >= 400 || !location) throw new Error(`the authorization stopped at ${next} (${answer.status})`);
    next = new URL(location, next).href;
  }
  const code = new URL(next).searchParams.get("code");
  if (!next.startsWith(benchClient.redirectUri) || !code) throw new Error(`the authorization ended at ${next}`);

  const credentials = clientAuthentication(benchClient);
  const exchange = await send(discovery.token_endpoint, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...credentials.headers },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: benchClient.redirectUri, code_verifier: verifier, ...credentials.form }),
  });
  const tokens = await exchange.json();
  if (!exchange.ok || !tokens.refresh_token) throw new Error(`the code exchange answered ${exchange.status}: ${JSON.stringify(tokens)}`);
  return tokens;
}

async function measure({ issuer, accessToken, client, refreshTokens }) {
  const discoveryUrl = `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;
  const discovery = await (await fetch(discoveryUrl)).json();
  const health = await load(`${new URL(issuer).origin}/healthz`);
  const reference = { label: "/healthz", value: health.rps };
  const rows = [];
  const add = (figure, result, goal) =>
    rows.push(row({ figure: `${figure}, req/s (p99 ${result.p99} ms)`, value: result.rps, unit: "", reference, ratio: result.rps / health.rps, ...goal }));
  const fromMemory = (rps) => ({ target: "from memory (≥ 0.5× /healthz)", met: rps >= 0.5 * health.rps });
  const discoveryLoad = await load(discoveryUrl);
  add("discovery", discoveryLoad, fromMemory(discoveryLoad.rps));
  const jwks = await load(discovery.jwks_uri);
  add("JWKS", jwks, fromMemory(jwks.rps));
  if (accessToken) {
    const userinfo = await load(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${accessToken}` } });
    add("userinfo", userinfo, target(userinfo.rps, 3000));
  } else console.log("userinfo skipped: set OIDC_ACCESS_TOKEN");
  if (client && refreshTokens) {
    const refresh = await refreshLoad(discovery.token_endpoint, client, refreshTokens);
    add(`token refresh (${refreshTokens.length} chains)`, refresh, target(refresh.rps, 1000));
  } else console.log("token refresh skipped: set OIDC_CLIENT_ID and OIDC_REFRESH_TOKENS_FILE");
  return rows;
}

/** Starts the built site with the test app, signs it in `chains` times, and measures; the site stops after. */
async function measureOwnSite() {
  const site = await launchServer({
    port: basePort + 30,
    buildDir,
    env: {
      TRUSTED_PROXIES: "127.0.0.1",
      OIDC_CLIENTS: JSON.stringify([{ client_id: benchClient.id, client_name: "效能測試 App", redirect_uris: [benchClient.redirectUri], public: false, first_party: true }]),
      [`OIDC_CLIENT_SECRET_${benchClient.id.toUpperCase().replace(/[-.]/g, "_")}`]: benchClient.secret,
    },
  });
  try {
    const discovery = await (await fetch(`${site.origin}/.well-known/openid-configuration`)).json();
    const signedIn = [];
    for (let index = 0; index < chains; index += 1) signedIn.push(await signInApp(site.origin, discovery, index));
    return await measure({
      issuer: discovery.issuer,
      // The newest: access tokens live OIDC_ACCESS_TOKEN_MINUTES (10), and the sign-ups take a while.
      accessToken: signedIn.at(-1).access_token,
      client: benchClient,
      refreshTokens: signedIn.map((tokens) => tokens.refresh_token),
    });
  } finally {
    await site.stop();
  }
}

export async function run() {
  return process.env.OIDC_ISSUER ? measure(givenByHand()) : measureOwnSite();
}

await runAlone(import.meta, run);
