import { z } from "~/lib/zod";

/**
 * A family's rules the browser and the server share (issue 31): roles, avatars, the consent notice's version and
 * one zod schema per form of the family screen, told apart by `intent`.
 */
export type FamilyRole = "owner" | "parent";

export const roleLabels: Record<FamilyRole, string> = { owner: "擁有者", parent: "家長" };

/** The notice a parent agrees to when adding a child (docs/product/family-consent-notice.md); bump with the text. */
export const consentNoticeVersion = "2026-11-27";

/** A child's avatar is one of these pictures: no uploaded photo of a child. */
export const avatars = { lion: "🦁", rabbit: "🐰", cat: "🐱", dog: "🐶", bear: "🐻", panda: "🐼", tiger: "🐯", fox: "🦊" } as const;
export type Avatar = keyof typeof avatars;

const text = z.string().default("");
const id = text.pipe(z.string().min(1, "找不到這筆資料").max(64, "找不到這筆資料"));

export const familyNameSchema = z.object({
  name: text.pipe(z.string().trim().min(1, "請輸入家庭名稱").max(30, "家庭名稱不可超過 30 個字")),
});

/** Birth years a child's profile accepts: up to 17 years old (a child, under the Civil Code) and not in the future. */
export function birthYearRange(now = new Date()) {
  const year = now.getFullYear();
  return { min: year - 17, max: year };
}

export const childSchema = (now = new Date()) => {
  const { min, max } = birthYearRange(now);
  return z.object({
    name: text.pipe(z.string().trim().min(1, "請輸入孩子的名字").max(20, "名字不可超過 20 個字")),
    avatar: text.pipe(z.enum(Object.keys(avatars) as [Avatar, ...Avatar[]], "請選一個頭像")),
    birthYear: text
      .pipe(z.string().trim().regex(/^\d{4}$/, "請輸入西元出生年，例如 2018"))
      .transform(Number)
      .pipe(z.number().min(min, `出生年需介於 ${min} 到 ${max} 之間`).max(max, `出生年需介於 ${min} 到 ${max} 之間`)),
  });
};

/** Adding a child needs the parent's consent, on record: the box and the version of the notice they saw. */
export const consentSchema = z.object({
  consent: z.literal("yes", "請先閱讀並同意兒童個人資料告知事項"),
  noticeVersion: text.pipe(z.literal(consentNoticeVersion, "告知事項已更新，請重新閱讀後再同意")),
});

export const childIdSchema = z.object({ childId: id });
export const invitationIdSchema = z.object({ invitationId: id });
export const deviceIdSchema = z.object({ deviceId: id });

/** The invitation form: an address to mail the link to, or none (the link is shared through LINE or copied). */
export const inviteSchema = z.object({
  email: text.pipe(z.union([z.literal(""), z.string().trim().toLowerCase().max(254, "電子郵件格式不正確").regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "電子郵件格式不正確")])),
});
export const parentIdSchema = z.object({ parentId: id });

export interface FamilyParent {
  id: string;
  name: string;
  /** Only a parent sees another parent's address; a child device never does. */
  email?: string;
  role: FamilyRole;
  joinedAt: string;
}

export interface FamilyChild {
  id: string;
  name: string;
  avatar: Avatar;
  birthYear: number;
}

/** A family as one of its parents sees it. */
export interface FamilyView {
  id: string;
  name: string;
  /** The viewer's own role. */
  role: FamilyRole;
  parents: FamilyParent[];
  children: FamilyChild[];
}
