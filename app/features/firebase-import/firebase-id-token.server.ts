import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";

/**
 * Firebase ID tokens, checked as Firebase's documentation says: RS256 with one of Google's keys (`kid`), `iss`
 * `https://securetoken.google.com/<project>`, `aud` the project, not expired, `auth_time` in the past, `sub` (the
 * uid) non-empty. Google's keys are kept as long as their answer's `Cache-Control: max-age` says (googleKeys).
 */
export function firebaseIdTokenVerifier({ projectId, jwksUrl }: { projectId: string; jwksUrl: string }) {
  const keys = googleKeys(jwksUrl);
  return async (token: string): Promise<{ uid: string; signInProvider: string | null } | { refused: string }> => {
    try {
      const { payload } = await jwtVerify(token, keys, { algorithms: ["RS256"], issuer: `https://securetoken.google.com/${projectId}`, audience: projectId });
      const uid = payload.sub;
      if (typeof uid !== "string" || !uid || uid.length > 128) return { refused: "no uid" };
      const authTime = (payload as { auth_time?: unknown }).auth_time;
      if (typeof authTime !== "number" || authTime > Date.now() / 1000 + 5) return { refused: "auth_time not in the past" };
      const firebase = (payload as { firebase?: { sign_in_provider?: unknown } }).firebase;
      return { uid, signInProvider: typeof firebase?.sign_in_provider === "string" ? firebase.sign_in_provider : null };
    } catch (error) {
      return { refused: (error as { code?: string }).code ?? "not a Firebase ID token" };
    }
  };
}

const cooldownMs = 30_000;
const timeoutMs = 5_000;
/** Without a max-age, an hour; a max-age is honoured between 1 s and a day. */
const defaultMaxAgeSeconds = 3600;
const longestMaxAgeSeconds = 24 * 3600;

/**
 * Google's key set, fetched when first needed and again once its `Cache-Control: max-age` has passed (Google rotates
 * the keys every few hours and says so in max-age); one fetch at a time. A token whose `kid` is not in the set
 * fetches it again, at most every 30 s. A failed fetch keeps the keys held, and is tried again after 30 s.
 */
export function googleKeys(url: string): JWTVerifyGetKey {
  let keys: JWTVerifyGetKey | undefined;
  let freshUntil = 0;
  let fetchedAt = 0;
  let pending: Promise<void> | undefined;
  const load = async () => {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: "application/json" } });
      if (!response.ok) throw new Error(`Google's keys answered ${response.status}`);
      const set = (await response.json()) as JSONWebKeySet;
      keys = createLocalJWKSet(set);
      fetchedAt = Date.now();
      const maxAge = /(?:^|[,\s])max-age=(\d+)/i.exec(response.headers.get("cache-control") ?? "");
      const seconds = maxAge ? Math.min(Math.max(Number(maxAge[1]), 1), longestMaxAgeSeconds) : defaultMaxAgeSeconds;
      freshUntil = fetchedAt + seconds * 1000;
    } catch (error) {
      if (!keys) throw error;
      freshUntil = Date.now() + cooldownMs;
    }
  };
  const reload = () => (pending ??= load().finally(() => (pending = undefined)));
  return async (header, token) => {
    if (!keys || Date.now() >= freshUntil) await reload();
    try {
      return await keys!(header, token);
    } catch (error) {
      if ((error as { code?: string }).code !== "ERR_JWKS_NO_MATCHING_KEY" || Date.now() - fetchedAt < cooldownMs) throw error;
      await reload();
      return keys!(header, token);
    }
  };
}
