import type { MailMessage } from "./mail-transport.server";
import { escapeHtml } from "~/lib/escape-html";

interface Brand {
  productName: string;
  supportEmail: string;
}

/**
 * One layout for every email: a greeting, one sentence, one button, the link as text, a footer. Notices pass
 * `unsubscribe`: a link in the footer and the List-Unsubscribe headers (RFC 8058 one-click, a POST to the link).
 */
export function actionEmail(
  brand: Brand,
  to: string,
  parts: { subject: string; greeting: string; body: string; button: string; link: string; footnote: string; unsubscribe?: string },
): MailMessage {
  const text = [
    parts.greeting,
    "",
    parts.body,
    "",
    parts.link,
    "",
    parts.footnote,
    "",
    `${brand.productName}｜${brand.supportEmail}`,
    ...(parts.unsubscribe ? ["", `不想再收到這類通知：${parts.unsubscribe}`] : []),
  ].join("\n");
  const html = `<!doctype html><html lang="zh-Hant-TW"><head><meta charset="utf-8"><title>${escapeHtml(parts.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f7ff;font-family:-apple-system,'PingFang TC','Noto Sans TC','Microsoft JhengHei',sans-serif;line-height:1.7;color:#1f2937">
<div style="max-width:520px;margin:0 auto;background:#fff;border-radius:16px;padding:32px">
<h1 style="font-size:20px;margin:0 0 16px;color:#3b5bdb">${escapeHtml(brand.productName)}</h1>
<p>${escapeHtml(parts.greeting)}</p>
<p>${escapeHtml(parts.body)}</p>
<p style="text-align:center;margin:32px 0"><a href="${escapeHtml(parts.link)}" style="background:#3b5bdb;color:#fff;padding:12px 24px;border-radius:999px;text-decoration:none;font-weight:bold">${escapeHtml(parts.button)}</a></p>
<p style="font-size:14px;color:#4b5563">如果按鈕無法使用，請複製以下連結到瀏覽器開啟：<br><a href="${escapeHtml(parts.link)}" style="color:#3b5bdb;word-break:break-all">${escapeHtml(parts.link)}</a></p>
<p style="font-size:14px;color:#4b5563">${escapeHtml(parts.footnote)}</p>
<hr style="border:none;border-top:1px solid #e5e7eb;margin:24px 0">
<p style="font-size:12px;color:#6b7280">${escapeHtml(brand.productName)}｜<a href="mailto:${escapeHtml(brand.supportEmail)}" style="color:#3b5bdb">${escapeHtml(brand.supportEmail)}</a></p>
${parts.unsubscribe ? `<p style="font-size:12px;color:#6b7280">不想再收到這類通知？<a href="${escapeHtml(parts.unsubscribe)}" style="color:#3b5bdb">取消通知</a></p>\n` : ""}</div></body></html>`;
  const headers = parts.unsubscribe
    ? { "List-Unsubscribe": `<${parts.unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" }
    : undefined;
  return { to, subject: parts.subject, text, html, ...(headers ? { headers } : {}) };
}

/**
 * The account mails' frame on `actionEmail`: the product's name ahead of the topic in the subject, and 「你好，」
 * unless the mail greets otherwise. The account's display name appears in no mail: anyone can sign up with
 * someone else's address, and a name such as 「帳號已停用，請至 https://… 重新啟用」 would open a genuine mail from
 * us with the stranger's words.
 */
function accountEmail(
  brand: Brand,
  to: string,
  parts: { topic: string; greeting?: string; body: string; button: string; link: string; footnote: string },
): MailMessage {
  const { topic, greeting = "你好，", ...rest } = parts;
  return actionEmail(brand, to, { subject: `【${brand.productName}】${topic}`, greeting, ...rest });
}

export function verificationEmail(brand: Brand, to: string, link: string): MailMessage {
  return accountEmail(brand, to, {
    topic: "請驗證你的電子郵件",
    greeting: `你好，歡迎加入${brand.productName}！`,
    body: "請點選下方按鈕完成電子郵件驗證，驗證後即可使用電子郵件與密碼登入。",
    button: "驗證電子郵件",
    link,
    footnote: "此連結將在 24 小時後失效。如果你沒有註冊帳號，請忽略這封信。",
  });
}

/** Sent once an account is deleted (App Store 5.1.1(v), Play's deletion rule): what went, and that it was at once. */
export function accountDeletedEmail(brand: Brand, to: string, link: string, went: string[] = []): MailMessage {
  const also = went.length > 0 ? `一起刪除的還有：${went.join("；")}。` : "";
  return accountEmail(brand, to, {
    topic: "你的帳號已刪除",
    body: `你的${brand.productName}帳號已經刪除，立即生效：帳號資料、所有裝置和 App 的登入、你的願望與投票，以及你上傳的檔案都已移除，無法復原。${also}系統備份中的副本最長 30 天內會被覆蓋。`,
    button: "查看刪除了哪些資料",
    link,
    footnote: "如果這不是你本人的操作，請立即回信告訴我們。",
  });
}

export function passwordResetEmail(brand: Brand, to: string, link: string): MailMessage {
  return accountEmail(brand, to, {
    topic: "重設你的密碼",
    body: "我們收到了重設密碼的請求。請點選下方按鈕設定新密碼。",
    button: "重設密碼",
    link,
    footnote: "此連結將在 1 小時後失效。如果你沒有提出這個請求，請忽略這封信，你的密碼不會改變。",
  });
}

/**
 * A security notice (something changed on the account, or it was used from a new device): what happened, when,
 * and where to look if it was not the reader. Always sent, no unsubscribe link: it is about the account itself.
 */
export function securityNoticeEmail(
  brand: Brand,
  to: string,
  parts: { title: string; body: string; when: string; link: string },
): MailMessage {
  return accountEmail(brand, to, {
    topic: `安全通知：${parts.title}`,
    body: `${parts.body}（時間：${parts.when}，台灣時間）`,
    button: "檢查帳號安全",
    link: parts.link,
    footnote: "如果這是你本人的操作，不需要做任何事。如果不是，請立即到帳號安全頁更改密碼並登出不認得的裝置，或回信告訴我們。",
  });
}

/** The link that confirms a new address for an existing account; the address changes only when it is opened. */
export function emailChangeEmail(brand: Brand, to: string, link: string): MailMessage {
  return accountEmail(brand, to, {
    topic: "請確認你的新電子郵件",
    body: `你在${brand.productName}申請把帳號的電子郵件改成這個地址。請點選下方按鈕確認，確認後才會改用這個地址。`,
    button: "確認新的電子郵件",
    link,
    footnote: "此連結將在 24 小時後失效。如果你沒有提出這個申請，請忽略這封信，帳號不會有任何改變。",
  });
}

/** The emailed sign-in link. */
export function emailLinkSignInEmail(brand: Brand, to: string, link: string): MailMessage {
  return accountEmail(brand, to, {
    topic: "你的登入連結",
    body: "請點選下方按鈕，在開啟的頁面上按「登入」即可登入，不需要輸入密碼。",
    button: "開啟登入頁面",
    link,
    footnote: "此連結只能使用一次，將在 15 分鐘後失效。如果你沒有要求登入連結，請忽略這封信；沒有這封信的連結，別人無法用這個方式登入。",
  });
}

/** A sign-in code (ways-in/email-code/): the code in the body (not the subject, which a locked phone shows), and a button to the page that takes it. */
export function emailCodeSignInEmail(brand: Brand, to: string, code: string, link: string, minutes: number): MailMessage {
  return accountEmail(brand, to, {
    topic: "你的登入驗證碼",
    body: `你的登入驗證碼是 ${code}，${minutes} 分鐘內有效。請在登入頁面輸入這組驗證碼，不需要輸入密碼。`,
    button: "開啟登入頁面",
    link,
    footnote: "驗證碼只能使用一次。請勿把驗證碼告訴任何人，我們不會向你索取。如果你沒有要求登入，請忽略這封信；沒有這組驗證碼，別人無法用這個方式登入。",
  });
}
