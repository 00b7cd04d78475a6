import { createHash, randomBytes, randomUUID } from "node:crypto";
import { enqueueMail } from "~/features/mail/outbox.server";
import { actionEmail } from "~/features/mail/mail-templates.server";
import { changeFamily, FamilyRefusal, lockFamily, refusals, requireMembership, type Actor, type Db } from "./family-store.server";
import { familyPagePath, type FamilyBrand } from "./family-notices.server";

/**
 * Inviting a co-parent (PRODUCT §5, Families): a single-use link valid for seven days, shared however the parent likes
 * (LINE, copied, or mailed from here). Whoever opens it signs in or signs up any way they like and accepts. The
 * answer to "invite this address" is the same whether or not the address has an account, and the mail goes out
 * either way: an invitation never tells who uses the site.
 */
export const invitationDays = 7;
export const maxOpenInvitations = 10;
export const joinPath = `${familyPagePath}/join`;

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");
const now = () => new Date();

/**
 * Why an invitation cannot be used, each with what to do next. Every refusal to join says the person did not join
 * (issue 38: a refused join once came back as 「你已加入家庭。」).
 */
export const invitationRefusals = {
  invalid: () => new FamilyRefusal(404, "family/invitation-invalid", "找不到這個邀請連結，你沒有加入家庭。請確認連結完整（從邀請信或訊息直接開啟），或向家人要一個新的邀請連結。"),
  expired: () => new FamilyRefusal(409, "family/invitation-expired", "這個邀請連結已過期，你沒有加入家庭。請向家人要一個新的邀請連結。"),
  used: () => new FamilyRefusal(409, "family/invitation-used", "這個邀請連結已經有人用過了（每個連結只能用一次），你沒有加入家庭。請向家人要一個新的邀請連結。"),
  /** The losing side of two acceptances at once (or of one a few minutes before). */
  taken: () => new FamilyRefusal(409, "family/invitation-taken", "就在剛才，另一個人先用這個邀請連結加入了家庭（每個連結只能用一次），所以你沒有加入。請向家人要一個新的邀請連結。"),
  cancelled: () => new FamilyRefusal(409, "family/invitation-cancelled", "這個邀請已被家人取消，你沒有加入家庭。請向家人要一個新的邀請連結。"),
  tooMany: () => new FamilyRefusal(409, "family/too-many-invitations", `尚未接受的邀請最多 ${maxOpenInvitations} 個，請先取消不需要的邀請。`),
  notFound: () => new FamilyRefusal(404, "family/invitation-not-found", "找不到這個邀請，可能已經被接受或取消了。"),
};

/** An acceptance this recent makes a later one "the losing side of a race" rather than an old link used again. */
const justTakenMs = 5 * 60_000;

export interface OpenInvitation {
  id: string;
  email: string | null;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

export interface NewInvitation {
  id: string;
  link: string;
  expiresAt: string;
}

export const invitationLink = (brand: FamilyBrand, token: string) => `${brand.siteUrl}${joinPath}?token=${token}`;

/** A new invitation from any parent of the family; mailed to `email` when one is given. */
export function createInvitation(db: Db, brand: FamilyBrand, actor: Actor, email: string | null): Promise<NewInvitation> {
  return changeFamily(db, brand, async ({ trx, record }) => {
    const member = await requireMembership(trx, actor.id);
    const at = now();
    const open = await trx
      .selectFrom("family_invitation")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("family_id", "=", member.family_id)
      .where("accepted_at", "is", null)
      .where("cancelled_at", "is", null)
      .where("expires_at", ">", at.toISOString())
      .executeTakeFirstOrThrow();
    if (Number(open.n) >= maxOpenInvitations) throw invitationRefusals.tooMany();
    const token = randomBytes(32).toString("base64url");
    const id = randomUUID();
    const expiresAt = new Date(at.getTime() + invitationDays * 86_400_000).toISOString();
    await trx
      .insertInto("family_invitation")
      .values({ id, family_id: member.family_id, token_hash: hashOf(token), invited_by: actor.id, email, created_at: at.toISOString(), expires_at: expiresAt })
      .execute();
    const link = invitationLink(brand, token);
    if (email) {
      const family = await trx.selectFrom("family").select("name").where("id", "=", member.family_id).executeTakeFirstOrThrow();
      const inviter = await trx.selectFrom("user").select("name").where("id", "=", actor.id).executeTakeFirstOrThrow();
      await enqueueMail(trx, invitationEmail(brand, email, inviter.name, family.name, link));
    }
    await record("invitation-created", member.family_id, { id }, actor.id);
    return { id, link, expiresAt };
  });
}

function invitationEmail(brand: FamilyBrand, to: string, inviterName: string, familyName: string, link: string) {
  const cut = (name: string) => (name.length > 40 ? `${name.slice(0, 40)}…` : name);
  return actionEmail(brand, to, {
    subject: `【${brand.productName}】邀請你一起管理家庭「${cut(familyName)}」`,
    greeting: "你好，",
    body: `「${cut(inviterName)}」邀請你以家長身分加入家庭「${cut(familyName)}」，一起安排孩子的任務。按下按鈕後登入或註冊（用哪種方式都可以），再按「接受邀請」就完成了。這個連結 ${invitationDays} 天內有效，只能使用一次。`,
    button: "查看邀請",
    link,
    footnote: "如果你不認識邀請你的人，不用理會這封信，連結過期後就會失效。",
  });
}

/** The family's invitations not yet accepted, cancelled or expired, for any of its parents to see. */
export async function openInvitations(db: Db, familyId: string): Promise<OpenInvitation[]> {
  const rows = await db
    .selectFrom("family_invitation")
    .innerJoin("user", "user.id", "family_invitation.invited_by")
    .select(["family_invitation.id", "family_invitation.email", "user.name", "family_invitation.created_at", "family_invitation.expires_at"])
    .where("family_invitation.family_id", "=", familyId)
    .where("family_invitation.accepted_at", "is", null)
    .where("family_invitation.cancelled_at", "is", null)
    .where("family_invitation.expires_at", ">", now().toISOString())
    .orderBy("family_invitation.created_at")
    .execute();
  return rows.map((row) => ({ id: row.id, email: row.email, invitedBy: row.name, createdAt: row.created_at, expiresAt: row.expires_at }));
}

export function cancelInvitation(db: Db, brand: FamilyBrand, actor: Actor, invitationId: string): Promise<void> {
  return changeFamily(db, brand, async ({ trx, record }) => {
    const member = await requireMembership(trx, actor.id);
    const result = await trx
      .updateTable("family_invitation")
      .set({ cancelled_at: now().toISOString() })
      .where("id", "=", invitationId)
      .where("family_id", "=", member.family_id)
      .where("accepted_at", "is", null)
      .where("cancelled_at", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw invitationRefusals.notFound();
    await record("invitation-cancelled", member.family_id, { id: invitationId }, actor.id);
  });
}

/** What the invitation page shows before accepting: the family's and the inviter's names, or a refusal. */
export async function previewInvitation(db: Db, token: string): Promise<{ familyName: string; inviterName: string; expiresAt: string }> {
  const row = await invitationByToken(db, token);
  const family = await db.selectFrom("family").select("name").where("id", "=", row.family_id).executeTakeFirstOrThrow();
  const inviter = await db.selectFrom("user").select("name").where("id", "=", row.invited_by).executeTakeFirst();
  return { familyName: family.name, inviterName: inviter?.name ?? "", expiresAt: row.expires_at };
}

/** The open invitation behind a token, or why not. `accepting`: a use minutes ago is the loser's side of a race. */
async function invitationByToken(db: Db, token: string, accepting = false) {
  if (!token || token.length > 100) throw invitationRefusals.invalid();
  const row = await db.selectFrom("family_invitation").selectAll().where("token_hash", "=", hashOf(token)).executeTakeFirst();
  if (!row) throw invitationRefusals.invalid();
  if (row.cancelled_at) throw invitationRefusals.cancelled();
  if (row.accepted_at) throw accepting && Date.now() - new Date(row.accepted_at).getTime() < justTakenMs ? invitationRefusals.taken() : invitationRefusals.used();
  if (row.expires_at <= now().toISOString()) throw invitationRefusals.expired();
  return row;
}

/**
 * The signed-in person joins the invitation's family as a parent. The invitation is used up by a conditional
 * update under the family's lock, so of two people accepting one link at once exactly one joins.
 */
export function acceptInvitation(db: Db, brand: FamilyBrand, actor: Actor & { name: string }, token: string): Promise<string> {
  return changeFamily(db, brand, async ({ trx, record }) => {
    if (!token || token.length > 100) throw invitationRefusals.invalid();
    const found = await trx.selectFrom("family_invitation").select("family_id").where("token_hash", "=", hashOf(token)).executeTakeFirst();
    if (!found || !(await lockFamily(trx, found.family_id))) throw invitationRefusals.invalid();
    // Read under the family's lock: the second of two acceptances at once sees the first one's here.
    const membership = await trx.selectFrom("family_member").select("family_id").where("user_id", "=", actor.id).executeTakeFirst();
    const latest = await trx.selectFrom("family_invitation").select(["accepted_by", "family_id"]).where("token_hash", "=", hashOf(token)).executeTakeFirstOrThrow();
    // The same person's second press (two tabs, a double click): they are in, as the first press said.
    if (latest.accepted_by === actor.id && membership?.family_id === latest.family_id) return latest.family_id;
    const invitation = await invitationByToken(trx, token, true);
    if (membership) throw refusals.alreadyInFamily();
    const at = now().toISOString();
    const used = await trx
      .updateTable("family_invitation")
      .set({ accepted_at: at, accepted_by: actor.id })
      .where("id", "=", invitation.id)
      .where("accepted_at", "is", null)
      .where("cancelled_at", "is", null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw invitationRefusals.taken();
    await trx.insertInto("family_member").values({ user_id: actor.id, family_id: invitation.family_id, role: "parent", joined_at: at }).execute();
    await record("parent-joined", invitation.family_id, { id: actor.id, name: actor.name }, actor.id);
    return invitation.family_id;
  });
}
