/**
 * The security record's events in plain words, for the parent's activity list and the operator console. Every
 * `audit` event of the sign-in layer's endpoint table has one (app/features/auth/way-in.test.ts); an event without
 * a label shows its name.
 */
const labels: Record<string, string> = {
  "sign-up": "建立帳號",
  "sign-in": "登入",
  "sign-out": "登出",
  "guest-sign-in": "以訪客身分開始使用",
  "guest-upgrade": "訪客升級為正式帳號",
  "two-step-code": "輸入兩步驟驗證碼",
  "identity-confirmation": "再次確認身分",
  "email-verification": "完成電子郵件驗證",
  "email-change": "申請變更電子郵件",
  "email-link-request": "申請登入連結",
  "email-code-request": "申請電子郵件驗證碼",
  "sms-code-request": "申請簡訊驗證碼",
  "phone-sign-in": "用手機號碼登入",
  "phone-number-added": "新增手機號碼",
  "phone-number-removed": "移除手機號碼",
  "password-reset-request": "申請重設密碼",
  "password-reset": "重設密碼",
  "password-change": "變更密碼",
  "password-set": "設定密碼",
  "two-step-enrolment": "開啟兩步驟驗證",
  "two-step-off": "關閉兩步驟驗證",
  "passkey-added": "新增密碼金鑰",
  "passkey-removed": "移除密碼金鑰",
  "sign-in-method-link": "連結登入方式",
  "sign-in-method-removal": "移除登入方式",
  "way-in-added": "新增登入方式",
  "sessions-ended": "登出其他裝置",
  "new-device": "從新裝置登入",
  "account-deletion": "刪除帳號",
  "apple-consent-revoked": "在 Apple 停止使用 Apple 登入，已結束所有登入",
  "apple-account-deleted": "Apple 帳號已刪除，已結束所有登入",
  "apple-email-disabled": "Apple 停止轉寄電子郵件",
  "apple-email-enabled": "Apple 恢復轉寄電子郵件",
  "app-grant": "在 App 登入",
  "firebase-import": "從 Firebase 匯入帳號",
  "firebase-storage-import": "從 Firebase 匯入檔案",
  "firebase-token-exchange": "App 以 Firebase 登入換成本站登入",
  "app-refresh-token-reuse": "App 的登入憑證被重複使用，已結束這個 App 的登入",
  "app-code-reuse": "App 的登入代碼被重複使用，已結束這個 App 的登入",
  "family-change": "家庭成員變動",
  "admin-lookup": "客服查看帳號",
  "admin-resend-verification": "客服重寄驗證信",
  "admin-sign-out": "客服登出所有裝置",
  "admin-lock": "客服停用帳號",
  "admin-unlock": "客服恢復帳號",
  "admin-role": "客服變更角色",
  "admin-delete": "客服刪除帳號",
};

export function eventLabel(event: string): string {
  return labels[event] ?? event;
}

export function outcomeLabel(outcome: string): string {
  return outcome === "success" ? "成功" : "未成功";
}
