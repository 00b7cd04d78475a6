import { createHash, randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { startCluster, testRedisUrl, type Cluster } from "~tests/helpers/cluster";

/**
 * The app's sign-in on two instances on PostgreSQL + Redis behind nginx (the deploy recipe): an authorization
 * that starts on one instance finishes on the other, a refresh on one instance and a revocation on the other are
 * seen by both, and the provider's records live in Redis under the site's key prefix.
 */
const redirectUri = "tw.example.app:/callback";

interface Answer {
  status: number;
  text: string;
  location: string | null;
}

/** One request (https trusting `ca`, which fetch cannot), keeping cookies in `jar`. */
function send(
  url: string,
  options: { method?: string; form?: Record<string, string>; json?: unknown; headers?: Record<string, string>; jar?: Map<string, string>; ca?: Buffer } = {},
): Promise<Answer> {
  const body = options.form ? new URLSearchParams(options.form).toString() : options.json === undefined ? undefined : JSON.stringify(options.json);
  const headers: Record<string, string> = { ...options.headers };
  if (body) headers["content-type"] = options.form ? "application/x-www-form-urlencoded" : "application/json";
  if (options.jar?.size) headers.cookie = [...options.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const client = url.startsWith("https:") ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(url, { method: options.method ?? (body ? "POST" : "GET"), headers, ca: options.ca }, (response) => {
      for (const line of response.headers["set-cookie"] ?? []) {
        const [pair = ""] = line.split(";");
        const at = pair.indexOf("=");
        options.jar?.set(pair.slice(0, at).trim(), pair.slice(at + 1));
      }
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), location: response.headers.location ?? null }));
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

describe.skipIf(!inject("postgresUrl"))("the app's sign-in on two instances behind nginx (PostgreSQL + Redis)", () => {
  let cluster: Cluster | undefined;

  beforeAll(async () => {
    cluster = await startCluster({
      label: "oidc_cluster",
      env: { OIDC_CLIENTS: JSON.stringify([{ client_id: "app", redirect_uris: [redirectUri], public: true, first_party: true }]) },
    });
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it("signs in through the proxy, refreshes on one instance, and a revocation on the other is seen by both", async () => {
    const { origin, ca, instances, redisPrefix } = cluster!;
    const jar = new Map<string, string>();
    const email = `oidc-cluster-${randomUUID().slice(0, 8)}@example.tw`;
    const created = await send(`${origin}/api/auth/sign-up/email`, {
      json: { email, password: "tide-meadow-lantern-48", name: "家長" },
      headers: { origin },
      jar,
      ca,
    });
    expect(created.status).toBe(200);

    // The authorization, through nginx (its requests alternate between the instances).
    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    let next = `${origin}/oidc/auth?${new URLSearchParams({
      client_id: "app",
      response_type: "code",
      redirect_uri: redirectUri,
      scope: "openid email offline_access",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "cluster-state",
    })}`;
    for (let hop = 0; hop < 8 && next.startsWith(origin); hop += 1) {
      const answer = await send(next, { jar, ca });
      expect(answer.status, answer.text.slice(0, 200)).toBeGreaterThanOrEqual(300);
      next = new URL(answer.location!, next).href;
    }
    const returned = new URL(next);
    expect(returned.protocol).toBe("tw.example.app:");
    const code = returned.searchParams.get("code")!;
    expect(code).toBeTruthy();

    const [a, b] = instances.map((instance) => instance.baseURL) as [string, string];
    const tokens = JSON.parse(
      (await send(`${a}/oidc/token`, { form: { grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: "app", code_verifier: verifier } })).text,
    ) as { access_token: string; refresh_token: string; id_token: string };
    expect(tokens.refresh_token).toBeTruthy();

    const refreshed = await send(`${a}/oidc/token`, { form: { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: "app" } });
    expect(refreshed.status).toBe(200);
    const second = JSON.parse(refreshed.text) as { access_token: string; refresh_token: string };
    // Instance B knows the new access token at once, and refuses the replaced refresh token.
    expect((await send(`${b}/oidc/me`, { headers: { authorization: `Bearer ${second.access_token}` } })).status).toBe(200);

    // The app signs out on B …
    expect((await send(`${b}/oidc/token/revocation`, { form: { token: second.refresh_token, token_type_hint: "refresh_token", client_id: "app" } })).status).toBe(200);
    // … and A refuses both tokens at once, at userinfo and at storage.
    const again = await send(`${a}/oidc/token`, { form: { grant_type: "refresh_token", refresh_token: second.refresh_token, client_id: "app" } });
    expect([again.status, (JSON.parse(again.text) as { error: string }).error]).toEqual([400, "invalid_grant"]);
    expect((await send(`${a}/oidc/me`, { headers: { authorization: `Bearer ${second.access_token}` } })).status).toBe(401);
    const upload = await send(`${a}/v0/b/default/o?name=${encodeURIComponent("users/x/a.png")}&uploadType=media`, {
      method: "POST",
      headers: { authorization: `Bearer ${second.access_token}`, "content-type": "image/png" },
    });
    expect(upload.status).toBe(401);

    // The provider's records were in Redis, under the site's prefix.
    const redis = new Redis(testRedisUrl);
    expect((await redis.keys(`${redisPrefix}oidc:*`)).length).toBeGreaterThan(0);
    redis.disconnect();
  }, 60_000);
});
