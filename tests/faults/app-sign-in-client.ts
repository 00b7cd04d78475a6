import { createHash, randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";

/**
 * The app's side of a sign-in against built instances, over plain HTTP(S) (fetch cannot trust nginx's test
 * certificate): a parent signs up, the authorization follows every redirect with the parent's cookies, and the
 * code is exchanged. Fault tests then refresh, revoke and call userinfo on chosen instances.
 */
export const appRedirectUri = "tw.example.app:/callback";
export const appClient = { client_id: "app", redirect_uris: [appRedirectUri], public: true, first_party: true };

export interface Answer {
  status: number;
  text: string;
  location: string | null;
  headers: http.IncomingHttpHeaders;
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  id_token: string;
  error?: string;
}

/** One request (https trusting `ca`), keeping cookies in `jar`. */
export function send(
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
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), location: response.headers.location ?? null, headers: response.headers }),
      );
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/**
 * A new parent signed in at `origin` and the app signed in for them; the code is exchanged at `tokenAt` (an
 * instance's own address, or the origin). `site` is the instances' SITE_URL when `origin` is not (one instance
 * reached at its own address): the Origin header names it, and the provider's absolute redirects to it are
 * followed at `origin`.
 */
export async function signInApp(origin: string, options: { ca?: Buffer; tokenAt?: string; site?: string } = {}) {
  const { ca, site = origin } = options;
  const jar = new Map<string, string>();
  const email = `oidc-faults-${randomUUID().slice(0, 8)}@example.tw`;
  const created = await send(`${origin}/api/auth/sign-up/email`, { json: { email, password: "tide-meadow-lantern-48", name: "家長" }, headers: { origin: site }, jar, ca });
  if (created.status !== 200) throw new Error(`sign-up answered ${created.status}: ${created.text.slice(0, 200)}`);
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  let next = `${origin}/oidc/auth?${new URLSearchParams({
    client_id: "app",
    response_type: "code",
    redirect_uri: appRedirectUri,
    scope: "openid email offline_access",
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "faults-state",
  })}`;
  for (let hop = 0; hop < 8 && next.startsWith(origin); hop += 1) {
    const answer = await send(next, { jar, ca });
    if (answer.status < 300 || answer.status >= 400) throw new Error(`the authorization stopped at ${answer.status}: ${answer.text.slice(0, 200)}`);
    next = new URL(answer.location!, next).href.replace(site, origin);
  }
  const code = new URL(next).searchParams.get("code");
  if (!code) throw new Error(`no code in ${next}`);
  const exchanged = await send(`${options.tokenAt ?? origin}/oidc/token`, {
    form: { grant_type: "authorization_code", code, redirect_uri: appRedirectUri, client_id: "app", code_verifier: verifier },
    ca,
  });
  if (exchanged.status !== 200) throw new Error(`the code exchange answered ${exchanged.status}: ${exchanged.text}`);
  return { email, jar, tokens: JSON.parse(exchanged.text) as Tokens };
}

/** A refresh at `base`: its status and answer. */
export async function refreshAt(base: string, refreshToken: string, ca?: Buffer) {
  const answer = await send(`${base}/oidc/token`, { form: { grant_type: "refresh_token", refresh_token: refreshToken, client_id: "app" }, ca });
  return { status: answer.status, body: JSON.parse(answer.text) as Tokens, headers: answer.headers };
}

export const userinfoStatus = async (base: string, accessToken: string, ca?: Buffer) =>
  (await send(`${base}/oidc/me`, { headers: { authorization: `Bearer ${accessToken}` }, ca })).status;
