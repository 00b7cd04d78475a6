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

/** Newest first; every http(s) link of the text part, so tests and people can follow them. */
export async function listMailbox(db: Kysely<Database>, to?: string, limit = 50): Promise<MailboxEntry[]> {
  let query = db.selectFrom("dev_mail").selectAll().orderBy("created_at", "desc").orderBy("id").limit(limit);
  if (to) query = query.where("recipient", "=", to.trim().toLowerCase());
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
