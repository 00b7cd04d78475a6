import { isEditor } from "~/features/auth/index.server";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { Caller } from "./storage-rules.server";

/**
 * Who is calling the storage API: `Authorization: Firebase <jwt>` or `Bearer <jwt>` (a short-lived token from
 * the JWT plugin, what the Firebase client sends in emulator mode, accepted only while the session it names
 * lives), `Bearer <access token>` of an app signed in through the site's OpenID provider, else the site's
 * session cookie. A cookie alone authorises a change only from a trusted origin, by the request guard's rule (no
 * cross-site request forgery through a form or a foreign page, nor a change from a request that names no Origin).
 * The role is read from the database, never from the token, so a demotion counts at once.
 */
export interface CallerDependencies {
  db: Kysely<Database>;
  /** Better Auth's public keys (`auth.api.getJwks()`). */
  jwks(): Promise<JSONWebKeySet>;
  /** The signed-in user of a request's cookie, or null (the sign-in layer's `readSession`). */
  sessionUserId(headers: Headers): Promise<string | null>;
  /** Whether the session a site token names (`sid`) still lives. */
  sessionActive(sessionId: string): Promise<boolean>;
  /**
   * The user of an app's (opaque) access token and whether its grant carries an editor's rights, or null when it
   * is unknown, expired, its sign-in ended or it was not granted storage.
   */
  appTokenUser(token: string): Promise<{ uid: string; editor: boolean } | null>;
  /** The JWT issuer and audience: the site's origin. */
  siteUrl: string;
  /** The request names one of the site's trusted origins (the request guard's `originRule(env).isTrusted`). */
  isTrustedOrigin(request: Request): boolean;
}

const keysLifetimeMs = 60_000;

export function createCallerResolver(deps: CallerDependencies) {
  let keys: { set: ReturnType<typeof createLocalJWKSet>; at: number } | undefined;
  const keySet = async (refresh: boolean) => {
    if (!keys || refresh || Date.now() - keys.at > keysLifetimeMs) {
      keys = { set: createLocalJWKSet(await deps.jwks()), at: Date.now() };
    }
    return keys.set;
  };

  const verify = async (token: string): Promise<string | null> => {
    for (const refresh of [false, true]) {
      try {
        const { payload } = await jwtVerify(token, await keySet(refresh), {
          issuer: deps.siteUrl,
          audience: deps.siteUrl,
        });
        if (typeof payload.sub !== "string" || typeof payload.sid !== "string") return null;
        return (await deps.sessionActive(payload.sid)) ? payload.sub : null;
      } catch (error) {
        // An unknown key id may be a key made since the last fetch: look once more.
        if ((error as { code?: string }).code !== "ERR_JWKS_NO_MATCHING_KEY") return null;
      }
    }
    return null;
  };

  // `mayEdit`: an app's token has an editor's rights only when its grant says so, and the role still counts.
  const asCaller = async (uid: string | null, mayEdit = true): Promise<Caller | null> => {
    if (!uid) return null;
    const user = await deps.db.selectFrom("user").select(["id", "role"]).where("id", "=", uid).executeTakeFirst();
    return user ? { uid: user.id, editor: mayEdit && isEditor(user) } : null;
  };
  const appCaller = async (token: string) => {
    const app = await deps.appTokenUser(token);
    return app ? asCaller(app.uid, app.editor) : null;
  };

  return async function resolveCaller(request: Request): Promise<Caller | null> {
    const authorization = request.headers.get("authorization");
    const bearer = authorization?.match(/^(?:Firebase|Bearer)\s+(\S+)$/i);
    // A JWT has three dot-separated parts; the provider's access tokens are opaque.
    if (bearer) return bearer[1]!.split(".").length === 3 ? asCaller(await verify(bearer[1]!)) : appCaller(bearer[1]!);
    if (authorization) return null;
    const safeMethod = request.method === "GET" || request.method === "HEAD";
    if (!safeMethod && !deps.isTrustedOrigin(request)) return null;
    return asCaller(await deps.sessionUserId(request.headers));
  };
}
