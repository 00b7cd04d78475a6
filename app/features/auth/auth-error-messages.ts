/**
 * The error catalogue of the original §8: one table from code to Traditional-Chinese message, used by the server
 * (every API error carries `{ code, message }`) and by the screens that raise a code of their own. Every page's
 * shell holds only the messages of its own failures (auth-client.ts), which this table includes.
 */
import { AuthError, shellErrorMessages, unknownErrorMessage } from "./auth-client";

/** What a form that asks only for a password says when it is wrong (`auth/invalid-credential` names the email too). */
export const wrongPasswordMessage = "密碼不正確";

export const authErrorMessages = {
  ...shellErrorMessages,
  "auth/invalid-email": "電子郵件格式不正確",
  "auth/user-disabled": "這個帳號已暫停使用，請寫信給客服",
  "auth/user-not-found": "找不到此電子郵件的帳號",
  "auth/wrong-password": "密碼錯誤",
  "auth/email-already-in-use": "此電子郵件已被註冊",
  "auth/weak-password": "密碼強度不足，至少需要 6 個字元",
  "auth/operation-not-allowed": "此操作不被允許",
  "auth/account-exists-with-different-credential": "此電子郵件已使用其他登入方式註冊",
  "auth/invalid-credential": "電子郵件或密碼錯誤",
  "auth/invalid-verification-code": "驗證碼無效",
  "auth/invalid-verification-id": "驗證 ID 無效",
  "auth/requires-recent-login": "請先確認是你本人",
  "auth/popup-closed-by-user": "登入視窗已被關閉，請再試一次",
  "auth/unauthorized-domain": "此網域未被授權",
  "auth/popup-blocked": "彈出視窗被瀏覽器封鎖，請允許彈出視窗後再試一次",
  "auth/cancelled-popup-request": "登入請求已取消",
  "auth/service-unavailable": "服務暫時無法使用，請稍後再試",
  "auth/invalid-api-key": "無效的 API 金鑰",
  "auth/app-deleted": "應用程式已被刪除",
  "auth/user-token-expired": "登入已過期，請重新登入",
  "auth/web-storage-unsupported": "此瀏覽器不支援網頁儲存功能",
  "auth/invalid-continue-uri": "重新導向網址無效",
  "auth/unauthorized-continue-uri": "重新導向網址未經授權",
  "email-not-verified": "電子郵件尚未驗證，請先完成驗證",
  // Client-side checks of the original §5.
  // Links in emails (verification, reset) that are expired, used or mangled.
  "auth/invalid-action-code": "連結無效、已過期或已使用過，請重新申請",
  "auth/email-already-verified": "此電子郵件已完成驗證",
  "auth/missing-password": "請輸入密碼",
  "auth/display-name-too-long": "顯示名稱不可超過 100 個字元",
  "auth/invalid-display-name": "顯示名稱不可包含網址或看不見的控制字元",
  "auth/invalid-photo-url": "大頭貼必須是在本站上傳的圖片",
  "auth/invalid-request": "請求格式不正確",
  "auth/not-found": "找不到此功能",
  // The account center (/account).
  "auth/last-sign-in-method": "至少要保留一種登入方式，最後一種登入方式無法移除",
  "auth/password-already-set": "這個帳號已經有密碼，請到「帳號安全」更改密碼",
  "auth/same-email": "新的電子郵件與目前的相同",
  "auth/provider-already-linked": "這個社群帳號已連結到另一個帳號",
  // Two-step sign-in (TOTP and backup codes).
  "auth/two-step-required": "請輸入兩步驟驗證的驗證碼完成登入",
  "auth/code-already-used": "這組驗證碼已經用過了，請等驗證器 App 顯示下一組驗證碼再輸入",
  "auth/invalid-backup-code": "備用碼不正確，或已經用過了",
  "auth/two-step-expired": "兩步驟驗證的時間已過，請重新登入",
  "auth/two-step-already-on": "兩步驟驗證已經開啟",
  "auth/two-step-off": "兩步驟驗證尚未開啟",
  // Passkeys.
  "auth/invalid-passkey": "無法使用這個密碼金鑰，請再試一次或改用其他方式登入",
  "auth/passkey-not-found": "找不到這個密碼金鑰，可能已經移除了",
  "auth/passkey-cancelled": "已取消使用密碼金鑰",
  "auth/passkey-unsupported": "這個瀏覽器不支援密碼金鑰，請改用其他方式登入",
  // Phone numbers and texted codes.
  "auth/invalid-phone-number": "請輸入正確的手機號碼，例如 0912-345-678",
  "auth/code-expired": "驗證碼已過期，請重新取得簡訊驗證碼",
  "auth/phone-number-already-in-use": "這個手機號碼已經用在其他帳號",
  "auth/sms-quota-exceeded": "今天的簡訊已經送太多了，請明天再試，或改用其他方式登入",
  // Codes mailed for sign-in (ways-in/email-code/).
  "auth/email-code-expired": "驗證碼已過期或失效，請重新寄送驗證碼到你的信箱",
  // The bot check before sign-up, a guest, a text, an emailed link or a reset mail.
  "auth/missing-bot-check": "請等「確認你不是機器人」完成後再送出",
  "auth/captcha-check-failed": "「確認你不是機器人」沒有通過或已經過期，請重新整理頁面再試一次",
  "auth/no-script-limit": "沒有開啟 JavaScript 時，這個網路每小時只能送出幾次，請稍後再試，或開啟 JavaScript 後再送出",

} as const;

export type AuthErrorCode = keyof typeof authErrorMessages;

/** A locked account (auth/user-disabled) as the server says it: with the address to write to (SUPPORT_EMAIL). */
export const lockedAccountMessage = (supportEmail: string) => `這個帳號已暫停使用，請寫信到 ${supportEmail}`;

/** Too many tries, with how long to wait (the answer's Retry-After): 「嘗試次數過多，請在 25 秒後再試」. */
export const tooManyTriesMessage = (seconds: number) =>
  `嘗試次數過多，請在 ${seconds < 60 ? `${seconds} 秒` : `${Math.ceil(seconds / 60)} 分鐘`}後再試`;

export function messageForCode(code: string): string {
  return (authErrorMessages as Record<string, string>)[code] ?? unknownErrorMessage;
}

/** The AuthError of a catalogue code, with its message. */
export const authError = (code: AuthErrorCode) => new AuthError(code, messageForCode(code));
