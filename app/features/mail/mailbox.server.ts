import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";

export interface MailboxEntry {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  createdAt: string;
}

/**
 * An address, or a number as E.164: `?to=+886912345678` arrives with its `+` decoded to a space, so bare digits
 * are a number (text messages share the mailbox with mail: the outbox's SMS channel).
 */
function mailboxRecipient(to: string): string {
  const recipient = to.trim().toLowerCase();
  return /^\d{8,15}$/.test(recipient) ? `+${recipient}` : recipient;
}

/** Newest first; every http(s) link of the text part, so tests and people can follow them. */
export async function listMailbox(db: Kysely<Database>, to?: string, limit = 50): Promise<MailboxEntry[]> {
  let query = db.selectFrom("dev_mail").selectAll().orderBy("created_at", "desc").orderBy("id").limit(limit);
  if (to) query = query.where("recipient", "=", mailboxRecipient(to));
  const rows = await query.execute();
  return rows.map((row) => ({
    to: row.recipient,
    subject: row.subject,
    text: row.text,
    html: row.html,
    links: row.text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
    createdAt: row.created_at,
  }));
}
