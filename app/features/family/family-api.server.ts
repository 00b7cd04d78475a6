import { Hono } from "hono";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { apiError } from "~/services/request-guard.server";
import { familyForApp } from "./family-claims.server";

/**
 * `GET /api/family` with the app's bearer access token → `{ "family": … }`: the signed-in parent's family, its
 * parents and children, or `null` before there is one. The host hands in the provider's token check (the same
 * answer userinfo gives: unknown, expired, revoked or ended tokens are refused).
 */
export function familyApi({ db, appTokenUser }: { db: Kysely<Database>; appTokenUser: (token: string) => Promise<string | null> }) {
  return new Hono().get("/api/family", async (c) => {
    const token = c.req.header("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
    const userId = token ? await appTokenUser(token) : null;
    if (!userId) {
      const answer = apiError(401, "family/unauthorized", "請用 App 的存取權杖呼叫這個 API。");
      answer.headers.set("WWW-Authenticate", 'Bearer error="invalid_token"');
      return answer;
    }
    return c.json({ family: await familyForApp(db, userId) }, 200, { "Cache-Control": "no-store" });
  });
}
