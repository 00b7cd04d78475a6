// The app-facing endpoints of the site's OpenID provider at 50 connections: discovery and JWKS (to be answered
// from memory), userinfo and token refresh (target ≥ 500 req/s each). Runs against a started site whose provider
// exists; /healthz of the same site is the reference measured in the same run.
//   OIDC_ISSUER=http://localhost:3000/<issuer path> node bench/oidc-endpoints.mjs
// Optional, for the endpoints that need a sign-in (get them with the reference client's flow):
//   OIDC_ACCESS_TOKEN=…                      userinfo
//   OIDC_CLIENT_ID=… [OIDC_CLIENT_SECRET=…]  and OIDC_REFRESH_TOKENS_FILE=<one refresh token per line, ≥ 50>
// Refresh tokens rotate (reusing one ends the grant), so each of the 50 connections follows its own chain.
import fs from "node:fs";
import { URLSearchParams } from "node:url";
import { load, row, runAlone, seconds } from "./lib.mjs";

const issuer = process.env.OIDC_ISSUER;
const target = (rps, p99) => ({ target: "≥ 500 req/s", met: rps >= 500, p99 });

/** Refreshes along `tokens.length` chains for `seconds`: requests per second and p99 in ms. */
async function refreshLoad(tokenEndpoint, tokens) {
  const clientId = process.env.OIDC_CLIENT_ID;
  const secret = process.env.OIDC_CLIENT_SECRET;
  const headers = { "content-type": "application/x-www-form-urlencoded" };
  if (secret) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString("base64")}`;
  const latencies = [];
  let failed = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(tokens.map(async (first) => {
    let token = first;
    while (Date.now() < until) {
      const body = new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, ...(secret ? {} : { client_id: clientId }) });
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

export async function run() {
  if (!issuer) throw new Error("Set OIDC_ISSUER to the provider's issuer (its discovery is <issuer>/.well-known/openid-configuration).");
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
  if (process.env.OIDC_ACCESS_TOKEN) {
    const userinfo = await load(discovery.userinfo_endpoint, { headers: { authorization: `Bearer ${process.env.OIDC_ACCESS_TOKEN}` } });
    add("userinfo", userinfo, target(userinfo.rps));
  } else console.log("userinfo skipped: set OIDC_ACCESS_TOKEN");
  const tokensFile = process.env.OIDC_REFRESH_TOKENS_FILE;
  if (tokensFile && process.env.OIDC_CLIENT_ID) {
    const tokens = fs.readFileSync(tokensFile, "utf8").split("\n").map((line) => line.trim()).filter(Boolean).slice(0, 50);
    const refresh = await refreshLoad(discovery.token_endpoint, tokens);
    add(`token refresh (${tokens.length} chains)`, refresh, target(refresh.rps));
  } else console.log("token refresh skipped: set OIDC_CLIENT_ID and OIDC_REFRESH_TOKENS_FILE");
  return rows;
}

await runAlone(import.meta, run);
