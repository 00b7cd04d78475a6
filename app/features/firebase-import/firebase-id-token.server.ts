import { createRemoteJWKSet, jwtVerify } from "jose";

/**
 * Firebase ID tokens, checked as Firebase's documentation says: RS256 with one of Google's keys (`kid`), `iss`
 * `https://securetoken.google.com/<project>`, `aud` the project, not expired, `auth_time` in the past, `sub` (the
 * uid) non-empty. Google's keys are fetched once and kept an hour (a token with an unknown `kid` fetches them again,
 * at most every 30 s): Google rotates them every few hours and keeps the old ones served for days.
 */
export function firebaseIdTokenVerifier({ projectId, jwksUrl }: { projectId: string; jwksUrl: string }) {
  const keys = createRemoteJWKSet(new URL(jwksUrl), { cacheMaxAge: 60 * 60_000, cooldownDuration: 30_000, timeoutDuration: 5_000 });
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
