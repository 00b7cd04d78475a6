import { getAuthService, type AuthService } from "~/features/auth/index.server";
import { listMailbox, type MailboxEntry } from "~/features/mail/mailbox.server";

type MailboxSite = Pick<AuthService, "devMailbox" | "database">;

/**
 * The development mailbox's mail to `?to=` (every mail without it), newest first; null where the site has no
 * mailbox (SMTP configured, or not a loopback site), so both of its addresses answer 404 there (PRODUCT §6).
 */
export async function readDevMailbox(request: Request, site: MailboxSite = getAuthService()): Promise<MailboxEntry[] | null> {
  if (!site.devMailbox) return null;
  return listMailbox(site.database.db, new URL(request.url).searchParams.get("to") ?? undefined);
}

/** GET /api/dev/mailbox: the same mail as JSON, which the end-to-end tests read their links from. */
export async function devMailboxApi(request: Request, site: MailboxSite = getAuthService()): Promise<Response> {
  const mails = await readDevMailbox(request, site);
  if (!mails) return Response.json({ error: { code: "not-found", message: "找不到這個網址。" } }, { status: 404 });
  return Response.json(mails);
}
