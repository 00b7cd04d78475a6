import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "~/db/schema";
import { actionEmail } from "~/features/mail/mail-templates.server";
import type { MailMessage } from "~/features/mail/mail-transport.server";
import { statusLabels, type Wish } from "./wish-rules";
import type { StatusChange } from "./wishes.server";

export interface NoticeBrand {
  productName: string;
  supportEmail: string;
  siteUrl: string;
}

export const unsubscribePath = "/wishing-well/unsubscribe";

/**
 * The email an author gets when the team changes their wish's status, or null when none goes out: guests
 * have no address, unverified addresses are not mailed (anyone can type someone else's address), and an author
 * who unsubscribed hears nothing more. Runs inside the status change's transaction.
 */
export async function statusNotice(trx: Transaction<Database>, { wish }: StatusChange, brand: NoticeBrand): Promise<MailMessage | null> {
  const author = await trx
    .selectFrom("user")
    .leftJoin("wish_notice_settings", "wish_notice_settings.user_id", "user.id")
    .select(["user.email", "user.emailVerified", "user.isAnonymous", "wish_notice_settings.token", "wish_notice_settings.unsubscribed_at"])
    .where("user.id", "=", wish.authorId)
    .executeTakeFirst();
  if (!author || Boolean(author.isAnonymous) || !author.emailVerified || author.unsubscribed_at) return null;
  let token = author.token;
  if (!token) {
    token = randomBytes(24).toString("base64url");
    await trx.insertInto("wish_notice_settings").values({ user_id: wish.authorId, token, unsubscribed_at: null }).execute();
  }
  return statusNoticeEmail(brand, author.email, wish, `${brand.siteUrl}${unsubscribePath}?token=${token}`);
}

/**
 * The notice itself: what changed, a button to the wish, and the unsubscribe link (footer and headers). It greets
 * without the author's name, like every mail of the site: a name is whatever its owner typed, and must not lead
 * a mail that comes from us.
 */
export function statusNoticeEmail(
  brand: NoticeBrand,
  to: string,
  wish: Pick<Wish, "id" | "title" | "status" | "statusReason">,
  unsubscribeLink: string,
): MailMessage {
  const status = statusLabels[wish.status];
  return actionEmail(brand, to, {
    subject: `【${brand.productName}】你的願望「${wish.title}」${status}`,
    greeting: "你好，",
    body:
      `你在許願池許下的「${wish.title}」，團隊把狀態改成了「${status}」。` +
      (wish.statusReason ? `原因：${wish.statusReason}` : "謝謝你的願望！"),
    button: "查看願望",
    link: `${brand.siteUrl}/wishing-well/${wish.id}`,
    footnote: "你會收到這封信，是因為你在許願池許了願。",
    unsubscribe: unsubscribeLink,
  });
}

/** Stops the notices for the token's owner; false for an unknown token. */
export async function unsubscribe(db: Kysely<Database>, token: string, now = new Date()): Promise<boolean> {
  if (!token || token.length > 64) return false;
  const result = await db
    .updateTable("wish_notice_settings")
    .set((eb) => ({ unsubscribed_at: eb.fn.coalesce("unsubscribed_at", eb.val(now.toISOString())) }))
    .where("token", "=", token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
