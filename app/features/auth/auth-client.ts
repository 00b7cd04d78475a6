/**
 * What the browser knows of the sign-in layer: its types, the error catalogue, and a small fetch-based client for
 * /api/auth (a few hundred bytes instead of Better Auth's full client).
 */
import type { IdentityRecord } from "./identity-record";
import type { AuthPath } from "./auth-endpoints";
import * as authPaths from "./auth-paths";
import { authBasePath } from "./auth-paths";

// The browser names endpoints through here: the table itself stays out of its bundle.
export { authPaths };

/** The session user the browser keeps (mirrored in localStorage["user"]), as in the original §3. */
export interface SessionUser {
  uid: string;
  email: string | null;
  displayName: string | null;
  emailVerified: boolean;
  isAnonymous?: boolean;
  photoURL?: string | null;
}

/** The pages the sign-in layer sends a browser to: the code of a pending two-step sign-in, an emailed sign-in link. */
export const twoStepPath = "/login/two-step";
export const emailLinkPath = "/login/email-link";
/**
 * The pages a mailed link opens. They share their names with the endpoints they call, and are the only strings
 * outside the endpoint table allowed to look like its paths (tests/integration/auth-endpoints.test.ts).
 */
export const resetPasswordPage = "/reset-password";
export const verifyEmailPage = "/verify-email";

export type SocialProvider = "apple" | "google" | "facebook" | "line" | "dev";

/** One signed-in device as the account screen shows it (`GET /api/auth/devices`). `id` names the session; it cannot be used as one. */
export interface DeviceSession {
  id: string;
  /** Browser and system in plain words with versions (`Android 14 上的 Chrome 126（Pixel 8）`), from the User-Agent. */
  device: string;
  /** Where its network is, when known without a lookup (`本機網路`); null otherwise. */
  place: string | null;
  createdAt: string;
  /** When the session last slid forward (at most once a day, see sessions.server.ts): a day's precision. */
  lastActiveAt: string;
  current: boolean;
}

/**
 * The error catalogue of the original §8: one table from code to Traditional-Chinese message, used by the
 * server (every API error carries `{ code, message }`) and by the browser (every failed action).
 */
/** What a form that asks only for a password says when it is wrong (`auth/invalid-credential` names the email too). */
export const wrongPasswordMessage = "密碼不正確";

export const authErrorMessages = {
  "auth/invalid-email": "電子郵件格式不正確",
  "auth/user-disabled": "此帳號已被停用",
  "auth/user-not-found": "找不到此電子郵件的帳號",
  "auth/wrong-password": "密碼錯誤",
  "auth/email-already-in-use": "此電子郵件已被註冊",
  "auth/weak-password": "密碼強度不足，至少需要 6 個字元",
  "auth/operation-not-allowed": "此操作不被允許",
  "auth/account-exists-with-different-credential": "此電子郵件已使用其他登入方式註冊",
  "auth/invalid-credential": "電子郵件或密碼錯誤",
  "auth/invalid-verification-code": "驗證碼無效",
  "auth/invalid-verification-id": "驗證 ID 無效",
  "auth/requires-recent-login": "此操作需要重新登入",
  "auth/too-many-requests": "嘗試次數過多，請稍後再試",
  "auth/network-request-failed": "網路連線失敗，請檢查網路連線",
  "auth/popup-closed-by-user": "登入視窗已被關閉，請再試一次",
  "auth/unauthorized-domain": "此網域未被授權",
  "auth/popup-blocked": "彈出視窗被瀏覽器封鎖，請允許彈出視窗後再試一次",
  "auth/cancelled-popup-request": "登入請求已取消",
  "auth/internal-error": "伺服器內部錯誤",
  "auth/service-unavailable": "服務暫時無法使用，請稍後再試",
  "auth/invalid-api-key": "無效的 API 金鑰",
  "auth/app-deleted": "應用程式已被刪除",
  "auth/user-token-expired": "登入已過期，請重新登入",
  "auth/web-storage-unsupported": "此瀏覽器不支援網頁儲存功能",
  "auth/timeout": "操作逾時，請稍後再試",
  "auth/missing-email": "請輸入電子郵件地址",
  "auth/invalid-continue-uri": "重新導向網址無效",
  "auth/unauthorized-continue-uri": "重新導向網址未經授權",
  "email-not-verified": "電子郵件尚未驗證，請先完成驗證",
  // Client-side checks of the original §5.
  "auth/not-anonymous": "目前的帳號不是訪客帳號",
  "auth/no-current-user": "目前沒有登入的使用者",
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
  // The bot check before sign-up, a guest, a text, an emailed link or a reset mail.
  "auth/missing-bot-check": "請等「確認你不是機器人」完成後再送出",
  "auth/captcha-check-failed": "「確認你不是機器人」沒有通過或已經過期，請重新整理頁面再試一次",
  "auth/no-script-limit": "沒有開啟 JavaScript 時，這個網路每小時只能送出幾次，請稍後再試，或開啟 JavaScript 後再送出",
} as const;

export type AuthErrorCode = keyof typeof authErrorMessages;

export const unknownErrorMessage = "操作失敗，請重試";

export function messageForCode(code: string): string {
  return (authErrorMessages as Record<string, string>)[code] ?? unknownErrorMessage;
}

/** What every failed auth call throws: a catalogue code and the message shown to the user. */
export class AuthError extends Error {
  override name = "AuthError";
  constructor(
    readonly code: string,
    message: string = messageForCode(code),
  ) {
    super(message);
  }
}


// Every failure of the client becomes an AuthError with a catalogue code and a Traditional-Chinese message.
let authOrigin = "";

export const unexpectedDomainWarning = "非預期的網域，可能導致驗證問題";

/**
 * The original's hostname allow-list: on an unexpected hostname, warn in Chinese and use the canonical
 * SITE_URL for the auth API instead of the current origin.
 */
export function configureAuthOrigin(config: { allowedHostnames: readonly string[]; siteUrl: string }): string {
  if (config.allowedHostnames.includes(window.location.hostname)) {
    authOrigin = window.location.origin;
  } else {
    console.warn(unexpectedDomainWarning);
    authOrigin = config.siteUrl;
  }
  return authOrigin;
}

export function getAuthOrigin(): string {
  return authOrigin || window.location.origin;
}

/** The original's network time-outs: 30 s on a desktop, 60 s on a phone. */
export function requestTimeoutMs(userAgent = navigator.userAgent): number {
  return /Mobi|Android|iPhone|iPad/i.test(userAgent) ? 60_000 : 30_000;
}

/** One call of the sign-in layer's API: `path` is a row of the endpoint table (`authPaths`), `query` its search parameters. */
export async function authRequest<T>(path: AuthPath, options: { method?: "GET" | "POST"; body?: unknown; query?: Record<string, string>; botCheck?: true } = {}): Promise<T> {
  const method = options.method ?? (options.body === undefined ? "GET" : "POST");
  // A row that asks for the bot check (a sign-up, a guest, a reset mail): the solver loads only for these calls.
  const botCheck = options.botCheck ? await (await import("./bot-check-client")).botCheckHeaders(getAuthOrigin()).catch(() => ({})) : {};
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), requestTimeoutMs());
  let response: Response;
  try {
    const search = options.query ? `?${new URLSearchParams(options.query)}` : "";
    response = await fetch(`${getAuthOrigin()}${authBasePath}${path}${search}`, {
      method,
      credentials: "include",
      headers: method === "POST" ? { "content-type": "application/json", ...botCheck } : undefined,
      body: method === "POST" ? JSON.stringify(options.body ?? {}) : undefined,
      signal: controller.signal,
    });
  } catch {
    throw new AuthError(controller.signal.aborted ? "auth/timeout" : "auth/network-request-failed");
  } finally {
    clearTimeout(timer);
  }
  const payload = (await response.json().catch(() => null)) as { code?: string; message?: string } | null;
  if (!response.ok) {
    const code = payload?.code ?? (response.status === 429 ? "auth/too-many-requests" : "auth/internal-error");
    // The server's message is already in Chinese (and names the broken password rules); keep it when present.
    throw new AuthError(code, payload?.message ?? messageForCode(code));
  }
  return payload as T;
}

export async function fetchIdentity(): Promise<IdentityRecord | null> {
  return (await authRequest<{ user: IdentityRecord | null }>(authPaths.me)).user;
}

/** Mails a new verification link to an address without needing a session (answers the same for any email). */
export async function requestVerificationEmail(email: string): Promise<void> {
  await authRequest(authPaths.sendVerificationEmail, { body: { email } });
}

export async function verifyEmailToken(token: string): Promise<void> {
  await authRequest(authPaths.verifyEmail, { query: { token } });
}

export async function confirmPasswordReset(token: string, newPassword: string): Promise<void> {
  await authRequest(authPaths.resetPassword, { body: { token, newPassword } });
}

/** The account's ways in, as the account screen and the copy of one's data show them (browser-safe). */
export type SignInProvider = "password" | SocialProvider;

export interface SignInMethod {
  /** The account row's id: what a removal posts. */
  id: string;
  provider: SignInProvider;
  linkedAt: string;
}

export interface SignInMethods {
  methods: SignInMethod[];
  /** Providers this site offers that the account has not linked. */
  linkable: SocialProvider[];
  /** How many passkeys the account has: ways in too, so a method may go while a passkey stays. */
  passkeys: number;
}

export const methodLabels: Record<SignInProvider, string> = {
  password: "電子郵件與密碼",
  apple: "Apple",
  google: "Google",
  facebook: "Facebook",
  line: "LINE",
  dev: "開發測試帳號",
};

/**
 * A copy of the account's data (Taiwan's Personal Data Protection Act, Art. 3 and 10), as `GET
 * /api/auth/account-data` answers it and the readable page shows it. `features` holds each feature's own part,
 * keyed by its user-data handler's name (`wishes`, `posts`, `storage`, …).
 */
export interface AccountData {
  exportedAt: string;
  profile: {
    id: string;
    displayName: string;
    email: string;
    emailVerified: boolean;
    photoURL: string | null;
    role: string;
    createdAt: string;
  };
  signInMethods: Omit<SignInMethod, "id">[];
  sessions: (Omit<DeviceSession, "id"> & { ipAddress: string | null; userAgent: string | null })[];
  features: Record<string, unknown>;
}
