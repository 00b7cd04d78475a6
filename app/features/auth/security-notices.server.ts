import type { ServerEnv } from "~/config/env.server";
import { enqueueMail, enqueueSms, type MailExecutor } from "~/features/mail/outbox.server";
import { securityNoticeEmail } from "~/features/mail/mail-templates.server";
import { formatTaiwanDateTime } from "~/lib/taiwan-time";

/**
 * Security notices by email (ASVS 6.3.7, 7.2.x): a short mail through the outbox whenever something that guards
 * the account changes, or it is used from a device it has not seen. Call `sendSecurityNotice` in the same
 * transaction as the change when there is one; the mail goes out after it commits.
 *
 *   await sendSecurityNotice(db, env, { kind: "passkey-added", to: user.email, detail: "我的 iPhone" });
 */
export type SecurityNoticeKind =
  | "password-changed"
  | "password-set"
  | "email-changed"
  | "new-device"
  | "sign-in-method-added"
  | "sign-in-method-removed"
  | "passkey-added"
  | "passkey-removed"
  | "two-factor-enabled"
  | "two-factor-disabled"
  | "unproven-access-ended";

export interface SecurityNotice {
  kind: SecurityNoticeKind;
  /** The address to tell (for an email change: the old one). */
  to: string;
  /** What the sentence names: the device, the new address, the provider, the passkey's name. */
  detail?: string;
  at?: Date;
}

export type NoticeSite = Pick<ServerEnv, "PRODUCT_NAME" | "SUPPORT_EMAIL" | "SITE_URL">;

const wording: Record<SecurityNoticeKind, { title: string; body: (detail: string) => string }> = {
  "password-changed": { title: "密碼已更改", body: () => "你的帳號密碼剛剛更改了。" },
  "password-set": { title: "已設定密碼", body: () => "你的帳號剛剛設定了密碼，之後也可以用電子郵件和密碼登入。" },
  "email-changed": {
    title: "電子郵件已更改",
    body: (detail) => `你的帳號電子郵件已從這個地址改為 ${detail}，之後的登入與通知都會使用新的地址。`,
  },
  "new-device": { title: "新裝置登入", body: (detail) => `你的帳號剛剛在一個新的裝置上登入：${detail}。` },
  "sign-in-method-added": { title: "新增了登入方式", body: (detail) => `你的帳號剛剛連結了新的登入方式：${detail}。` },
  "sign-in-method-removed": { title: "移除了登入方式", body: (detail) => `你的帳號剛剛移除了一種登入方式：${detail}。` },
  "passkey-added": { title: "新增了密碼金鑰", body: (detail) => `你的帳號剛剛新增了一把密碼金鑰${detail ? `「${detail}」` : ""}。` },
  "passkey-removed": { title: "移除了密碼金鑰", body: (detail) => `你的帳號剛剛移除了一把密碼金鑰${detail ? `「${detail}」` : ""}。` },
  "two-factor-enabled": { title: "已開啟兩步驟驗證", body: () => "你的帳號剛剛開啟了兩步驟驗證，之後登入時需要輸入驗證碼。" },
  "two-factor-disabled": { title: "已關閉兩步驟驗證", body: () => "你的帳號剛剛關閉了兩步驟驗證，登入時不再需要驗證碼。" },
  "unproven-access-ended": {
    title: "已確認這個電子郵件是你的",
    body: () =>
      "有人先用這個電子郵件地址註冊了帳號，但沒有完成確認。你剛剛證明了這個地址是你的，所以確認之前設定的密碼、其他登入方式、密碼金鑰和兩步驟驗證都已移除，所有裝置和 App 也都已登出。帳號裡的資料還在；如果註冊的人不是你，請檢查帳號內容，需要時再設定新的密碼。",
  },
};

/** Guests have no real address (`…@guest.invalid`), nor have accounts made by phone (`…@phone.invalid`). */
const deliverable = (to: string) => Boolean(to) && !to.toLowerCase().endsWith(".invalid");

/** The account's verified number, found by its address (a phone-only account's is its placeholder). */
async function phoneOf(executor: MailExecutor, email: string): Promise<string | null> {
  const row = await executor
    .selectFrom("user")
    .select(["phoneNumber", "phoneNumberVerified"])
    .where("email", "=", email.toLowerCase())
    .executeTakeFirst();
  return row?.phoneNumber && row.phoneNumberVerified ? row.phoneNumber : null;
}

/**
 * Tells the account through every channel it has: its email (when it has a real one) and its verified phone
 * number, so a parent who signed up by phone is told too. `phone` names the number to tell when the caller knows
 * it: one the account no longer has (the number just removed), or the account's own as its user row says (null:
 * none); without it the number is looked up.
 */
export async function sendSecurityNotice(executor: MailExecutor, site: NoticeSite, notice: SecurityNotice & { phone?: string | null }): Promise<void> {
  const { title, body } = wording[notice.kind];
  const phone = notice.phone !== undefined ? notice.phone : notice.to ? await phoneOf(executor, notice.to) : null;
  if (phone) await enqueueSms(executor, { to: phone, text: `【${site.PRODUCT_NAME}】${title}：${body(notice.detail ?? "")}如果不是你本人操作，請立即登入檢查帳號。`, purpose: "notice" });
  if (!deliverable(notice.to)) return;
  const brand = { productName: site.PRODUCT_NAME, supportEmail: site.SUPPORT_EMAIL };
  await enqueueMail(
    executor,
    securityNoticeEmail(brand, notice.to, {
      title,
      body: body(notice.detail ?? ""),
      when: formatTaiwanDateTime((notice.at ?? new Date()).toISOString()),
      link: `${site.SITE_URL}/account/security`,
    }),
  );
}
