import { AuthError, messageForCode } from "./auth-errors";
import type { IdentityRecord } from "./identity-record";

/**
 * A small fetch-based client for /api/auth (a few hundred bytes instead of Better Auth's full client).
 * Every failure becomes an AuthError with a catalogue code and a Traditional-Chinese message.
 */
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

export async function authRequest<T>(path: string, options: { method?: "GET" | "POST"; body?: unknown } = {}): Promise<T> {
  const method = options.method ?? (options.body === undefined ? "GET" : "POST");
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), requestTimeoutMs());
  let response: Response;
  try {
    response = await fetch(`${getAuthOrigin()}/api/auth${path}`, {
      method,
      credentials: "include",
      headers: method === "POST" ? { "content-type": "application/json" } : undefined,
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
  return (await authRequest<{ user: IdentityRecord | null }>("/me")).user;
}

/** Mails a new verification link to an address without needing a session (answers the same for any email). */
export async function requestVerificationEmail(email: string): Promise<void> {
  await authRequest("/send-verification-email", { body: { email } });
}

export async function verifyEmailToken(token: string): Promise<void> {
  await authRequest(`/verify-email?token=${encodeURIComponent(token)}`);
}

export async function confirmPasswordReset(token: string, newPassword: string): Promise<void> {
  await authRequest("/reset-password", { body: { token, newPassword } });
}
