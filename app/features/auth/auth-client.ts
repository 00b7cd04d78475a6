/**
 * What the browser knows of the sign-in layer: its types, the errors it raises, and a small fetch-based client for
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
 * The messages of the failures the browser's own code raises on every page (a lost connection, a timeout, a call
 * made in the wrong state). The whole catalogue is in auth-error-messages.ts, which every page need not load:
 * a server answer carries its own message, and a screen that raises another code takes it from there.
 */
export const shellErrorMessages = {
  "auth/too-many-requests": "嘗試次數過多，請稍後再試",
  "auth/network-request-failed": "網路連線失敗，請檢查網路連線",
  "auth/internal-error": "伺服器內部錯誤",
  "auth/timeout": "操作逾時，請稍後再試",
  "auth/missing-email": "請輸入電子郵件地址",
  "auth/not-anonymous": "目前的帳號不是訪客帳號",
  "auth/no-current-user": "目前沒有登入的使用者",
} as const;
export type ShellErrorCode = keyof typeof shellErrorMessages;

export const unknownErrorMessage = "操作失敗，請重試";

/** What every failed auth call throws: a catalogue code and the message shown to the user. */
export class AuthError extends Error {
  override name = "AuthError";
  readonly code: string;
  /** A code of the shell's own takes its message here; any other code comes with its message (`authError`). */
  constructor(code: ShellErrorCode);
  constructor(code: string, message: string);
  constructor(code: string, message?: string) {
    super(message ?? (shellErrorMessages as Record<string, string>)[code] ?? unknownErrorMessage);
    this.code = code;
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
    throw new AuthError(code, payload?.message ?? (shellErrorMessages as Record<string, string>)[code] ?? unknownErrorMessage);
  }
  return payload as T;
}

export async function fetchIdentity(): Promise<IdentityRecord | null> {
  return (await authRequest<{ user: IdentityRecord | null }>(authPaths.me)).user;
}

/** Mails a new verification link to an address without needing a session (answers the same for any email). */
export async function requestVerificationEmail(email: string): Promise<void> {
  await authRequest(authPaths.sendVerificationEmail, { body: { email }, botCheck: true });
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
    /** The address the parent gave; null for an account made by phone that has none. */
    email: string | null;
    emailVerified: boolean;
    /** The proved phone number (E.164, +886912345678), or null. */
    phoneNumber: string | null;
    photoURL: string | null;
    role: string;
    createdAt: string;
  };
  signInMethods: Omit<SignInMethod, "id">[];
  /** The account's passkeys: the name its owner gave each, whether it syncs between devices, when made and last used. */
  passkeys: { name: string; synced: boolean; createdAt: string; lastUsedAt: string | null }[];
  sessions: (Omit<DeviceSession, "id"> & { ipAddress: string | null; userAgent: string | null })[];
  features: Record<string, unknown>;
}
