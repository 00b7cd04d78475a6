import type { Transaction } from "kysely";
import type { Database } from "~/db/schema";
import { enqueueMail } from "~/features/mail/outbox.server";
import { actionEmail } from "~/features/mail/mail-templates.server";
import type { FamilyChangeKind } from "./family-events.server";

/**
 * The email every parent of a family gets when a parent, a child or a device comes or goes (PRODUCT §5, Families), written
 * to the outbox in the change's own transaction. Only verified addresses are mailed (anyone can type someone
 * else's address). Names are what people typed: cut short, and never the mail's first words.
 */
export interface FamilyBrand {
  productName: string;
  supportEmail: string;
  siteUrl: string;
}

export const familyPagePath = "/account/family";

const short = (name: string) => (name.length > 40 ? `${name.slice(0, 40)}…` : name);

const sentences: Partial<Record<FamilyChangeKind, (subject: string, family: string) => string>> = {
  "parent-joined": (who, family) => `「${who}」以家長身分加入了家庭「${family}」。`,
  "parent-left": (who, family) => `「${who}」離開了家庭「${family}」。`,
  "parent-removed": (who, family) => `「${who}」已被移出家庭「${family}」。`,
  "owner-changed": (who, family) => `「${who}」現在是家庭「${family}」的擁有者。`,
  "child-added": (who, family) => `家庭「${family}」新增了孩子「${who}」的資料。`,
  "child-removed": (who, family) => `家庭「${family}」移除了孩子「${who}」的資料。`,
  "device-added": (who, family) => `「${who}」的平板加入了家庭「${family}」。`,
  "device-removed": (who, family) => `「${who}」的平板已退出家庭「${family}」，它不能再以孩子的身分使用。`,
  "family-deleted": (_who, family) => `家庭「${family}」已刪除，孩子的資料與平板的登入也一併刪除。`,
};

/** What the parent the change is about reads instead, spoken to as 你 (the removed parent still hears of it). */
const toTheSubject: Partial<Record<FamilyChangeKind, (family: string) => string>> = {
  "parent-removed": (family) => `你已被移出家庭「${family}」。`,
};

/** Whether a change of this kind is mailed to the parents. */
export const isNoticed = (kind: FamilyChangeKind) => kind in sentences;

/** Mails every current parent of `familyId` about the change (call before removing whoever should still hear). */
export async function noticeParents(
  trx: Transaction<Database>,
  brand: FamilyBrand,
  change: { kind: FamilyChangeKind; familyId: string; subjectId?: string; subjectName: string },
): Promise<void> {
  const sentence = sentences[change.kind];
  if (!sentence) return;
  const family = await trx.selectFrom("family").select("name").where("id", "=", change.familyId).executeTakeFirst();
  if (!family) return;
  const parents = await trx
    .selectFrom("family_member")
    .innerJoin("user", "user.id", "family_member.user_id")
    .select(["user.id", "user.email", "user.emailVerified", "user.isAnonymous"])
    .where("family_member.family_id", "=", change.familyId)
    .execute();
  const toEveryone = sentence(short(change.subjectName), short(family.name));
  const toSubject = toTheSubject[change.kind];
  for (const parent of parents) {
    if (!parent.emailVerified || parent.isAnonymous) continue;
    const aboutThem = Boolean(toSubject) && parent.id === change.subjectId;
    const body = aboutThem && toSubject ? toSubject(short(family.name)) : toEveryone;
    await enqueueMail(
      trx,
      actionEmail(brand, parent.email, {
        subject: `【${brand.productName}】家庭通知：${body.slice(0, 60)}`,
        greeting: "你好，",
        body: `${body}如果這不是你預期的變動，請到家庭頁面確認，或與其他家長聯絡。`,
        button: "查看家庭",
        link: `${brand.siteUrl}${familyPagePath}`,
        footnote: aboutThem ? "你會收到這封信，是因為你曾是這個家庭的家長。" : "你會收到這封信，是因為你是這個家庭的家長。",
      }),
    );
  }
}
