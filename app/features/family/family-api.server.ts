import { Hono } from "hono";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { apiError } from "~/services/request-guard.server";
import { familyForAccount } from "./family-claims.server";

/**
 * `GET /api/family` with the app's bearer access token → `{ "family": … }`: the signed-in parent's family, its
 * parents and children, or `null` before there is one. The host hands in the provider's token check (the same
 * answer userinfo gives: unknown, expired, revoked or ended tokens are refused) and whether the token holds the
 * `family` scope: a token for the app's other work does not open the children's profiles (RFC 6750, section 3.1).
 */
export function familyApi({ db, appTokenUser }: { db: Kysely<Database>; appTokenUser: (token: string) => Promise<{ accountId: string; family: boolean } | null> }) {
  return new Hono().get("/api/family", async (c) => {
    const token = c.req.header("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
    const holder = token ? await appTokenUser(token) : null;
    if (!holder) {
      const answer = apiError(401, "family/unauthorized", "請用 App 的存取權杖呼叫這個 API。");
      answer.headers.set("WWW-Authenticate", 'Bearer error="invalid_token"');
      return answer;
    }
    if (!holder.family) {
      const answer = apiError(403, "family/insufficient-scope", "這個存取權杖沒有讀取家庭的權限，請在登入時要求 family 範圍。");
      answer.headers.set("WWW-Authenticate", 'Bearer error="insufficient_scope", scope="family"');
      return answer;
    }
    return c.json({ family: await familyForAccount(db, holder.accountId) }, 200, { "Cache-Control": "no-store" });
  });
}
