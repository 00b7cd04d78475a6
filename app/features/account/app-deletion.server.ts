import { createHash, randomBytes } from "node:crypto";
import { Hono } from "hono";
import { redirect } from "react-router";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { getDatabase } from "~/db/db.server";
import { apiError } from "~/services/request-guard.server";
import { currentIdentity } from "~/features/auth/index.server";
import { authHref } from "~/features/sign-in/auth-paths";

/**
 * Deletion started in the app (App Store Review Guideline 5.1.1(v)): the app (one of ours, or a partner's granted
 * the `account:delete` scope) asks with its access token for a short-lived address, `POST /api/app/account-deletion` → `{ url, expires_in }`, and opens it in the browser.
 * The address (`/account-deletion/from-app?ticket=…`) names the app's parent but signs no one in: a browser
 * signed in as that parent lands on the deletion page at once, one signed out signs in first (and the deletion
 * itself asks for a recent sign-in), one signed in as someone else is told so. The ticket works once, for ten
 * minutes; only its SHA-256 is stored.
 */
const ticketLifetimeSeconds = 600;
export const fromAppPath = "/account-deletion/from-app";

const hashOf = (ticket: string) => createHash("sha256").update(ticket).digest("hex");

/** What the deletion page says when the app opened it: `?app=` of /account-deletion. */
export type FromAppOutcome = "confirmed" | "other-account" | "expired";

const outcomes: readonly FromAppOutcome[] = ["confirmed", "other-account", "expired"];
/** The deletion page's `?app=`, or null for any other value. */
export const fromAppOutcome = (value: string | null): FromAppOutcome | null => outcomes.find((outcome) => outcome === value) ?? null;

/** `POST /api/app/account-deletion` for the app; the host hands in the provider's access-token check. */
export function appDeletionApi({ db, siteUrl, appTokenAccount }: { db: Kysely<Database>; siteUrl: string; appTokenAccount: (token: string) => Promise<{ accountId: string; deletion: boolean } | null> }) {
  return new Hono().post("/api/app/account-deletion", async (c) => {
    const token = c.req.header("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
    const holder = token ? await appTokenAccount(token) : null;
    const accountId = holder?.accountId;
    // Only a parent's account is deleted this way (a child's tablet has no account of its own, nor a guest).
    const parent = accountId ? await db.selectFrom("user").select(["id", "isAnonymous"]).where("id", "=", accountId).executeTakeFirst() : undefined;
    if (!parent || parent.isAnonymous) {
      const answer = apiError(401, "account/unauthorized", "請用家長在 App 登入後取得的存取權杖呼叫這個 API。");
      answer.headers.set("WWW-Authenticate", 'Bearer error="invalid_token"');
      return answer;
    }
    // Our own apps; a partner's only with the scope its consent screen named (「幫你開始刪除帳號」), never with a
    // token that was only to know who the parent is.
    if (!holder?.deletion) {
      const answer = apiError(403, "account/deletion-scope-required", "這個應用程式沒有取得幫你開始刪除帳號的權限。請到本網站的「刪除帳號」頁面操作。");
      answer.headers.set("WWW-Authenticate", 'Bearer error="insufficient_scope", scope="account:delete"');
      return answer;
    }
    const ticket = randomBytes(32).toString("base64url");
    const expiresAt = new Date(Date.now() + ticketLifetimeSeconds * 1000).toISOString();
    await db.deleteFrom("app_deletion_ticket").where("expires_at", "<", new Date().toISOString()).execute();
    await db.insertInto("app_deletion_ticket").values({ ticket_hash: hashOf(ticket), user_id: parent.id, expires_at: expiresAt }).execute();
    const url = `${siteUrl}${fromAppPath}?${new URLSearchParams({ ticket })}`;
    return c.json({ url, expires_in: ticketLifetimeSeconds }, 201, { "Cache-Control": "no-store" });
  });
}

/** The loader of /account-deletion/from-app: to the deletion page (with `?app=`), or to sign in first. */
export async function openDeletionFromApp(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const ticket = url.searchParams.get("ticket") ?? "";
  const { db } = getDatabase();
  const row = ticket
    ? await db.selectFrom("app_deletion_ticket").selectAll().where("ticket_hash", "=", hashOf(ticket)).where("expires_at", ">", new Date().toISOString()).executeTakeFirst()
    : undefined;
  const to = (outcome: FromAppOutcome) => redirect(`/account-deletion?app=${outcome}`, { headers: { "Cache-Control": "no-store" } });
  if (!row) return to("expired");
  const viewer = await currentIdentity(request);
  if (!viewer || viewer.isAnonymous) return redirect(authHref("/login", `${fromAppPath}?${new URLSearchParams({ ticket })}`), { headers: { "Cache-Control": "no-store" } });
  if (viewer.uid !== row.user_id) return to("other-account");
  await db.deleteFrom("app_deletion_ticket").where("ticket_hash", "=", row.ticket_hash).execute();
  return to("confirmed");
}
