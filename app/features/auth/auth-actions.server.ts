import { data, redirect } from "react-router";
import type { z } from "zod";
import { clientIpHeader } from "~/services/client-ip.server";
import { getAuthService } from "./auth-service.server";
import { toCatalogueError } from "./api-errors.server";
import { messageForCode } from "./auth-errors";
import { authHref, twoStepPath } from "./auth-paths";
import { safeRedirect } from "./redirect-rule";
import type { IdentityRecord } from "./identity-record";
import type { AccountSecurity, AccountSecurityIntent, DeviceSession } from "./account-security";
import {
  changePasswordSchema,
  fieldErrorsOf,
  forgotPasswordSchema,
  formFields,
  loginSchema,
  resendVerificationSchema,
  resetPasswordSchema,
  signupSchema,
  type FormOutcome,
} from "./form-schemas";

export interface AuthAnswer {
  ok: boolean;
  status: number;
  body: {
    code?: string;
    message?: string;
    user?: IdentityRecord | null;
    devices?: DeviceSession[];
    /** The password (or link) was right and the account has two-step sign-in: the code is asked next. */
    twoFactorRedirect?: boolean;
  } | null;
  cookies: string[];
}

/**
 * Calls Better Auth in-process with the browser's own cookie, Origin and address, so every rule of the sign-in
 * layer (origin check, rate limits, the redirect rule, the product's plugins) applies as for the JSON API.
 */
export async function callAuth(request: Request, path: string, body?: unknown): Promise<AuthAnswer> {
  const service = getAuthService();
  const headers = new Headers();
  for (const name of ["cookie", "origin", "referer", "user-agent", clientIpHeader]) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (body !== undefined) headers.set("content-type", "application/json");
  const answer = await toCatalogueError(
    await service.auth.handler(
      new Request(`${service.env.SITE_URL}/api/auth${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    ),
  );
  const parsed = (await answer.json().catch(() => null)) as AuthAnswer["body"];
  return { ok: answer.ok, status: answer.status, body: parsed, cookies: answer.headers.getSetCookie() };
}

export const withCookies = (cookies: string[]) => {
  const headers = new Headers();
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return headers;
};

export function failed(answer: AuthAnswer, values: Record<string, string>, fields: Partial<Record<string, string>> = {}, intent?: string) {
  const code = answer.body?.code ?? "auth/internal-error";
  const message = answer.body?.message ?? messageForCode(code);
  const field = fields[code];
  return data<FormOutcome>(
    { formError: message, code, values, fieldErrors: field ? { [field]: message } : undefined, intent },
    { status: answer.status, headers: withCookies(answer.cookies) },
  );
}

export function invalid(error: z.ZodError, values: Record<string, string>, intent?: string) {
  return data<FormOutcome>({ fieldErrors: fieldErrorsOf(error), values, intent }, { status: 400 });
}

/** Where to go afterwards: the `redirectTo` of the form or of the address, judged by the one redirect rule. */
export function destination(request: Request, fields: Record<string, string>) {
  const target = fields.redirectTo ?? new URL(request.url).searchParams.get("redirectTo");
  return safeRedirect(target, getAuthService().env.SITE_URL);
}

export async function currentUser(request: Request): Promise<IdentityRecord | null> {
  return (await callAuth(request, "/me")).body?.user ?? null;
}

/**
 * The posted form's text fields. A body that is not a form (JSON, a multipart body without its boundary, broken
 * bytes) is the sender's mistake: it ends the action with 400 and a sentence, never a server error.
 */
export async function postedFields(request: Request): Promise<Record<string, string>> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw data<FormOutcome>({ formError: "送出的表單資料格式不正確，請重新整理頁面後再試一次。", code: "form/malformed" }, { status: 400 });
  }
  return formFields(form);
}

export async function loginAction(request: Request) {
  const fields = await postedFields(request);
  const to = destination(request, fields);
  if (fields.intent === "guest" || fields.intent === "logout") {
    const answer = await callAuth(request, fields.intent === "guest" ? "/sign-in/anonymous" : "/sign-out", {});
    if (!answer.ok) return failed(answer, {});
    return redirect(fields.intent === "guest" ? to : authHref("/login", to), { headers: withCookies(answer.cookies) });
  }
  const values = { email: fields.email ?? "" };
  const parsed = loginSchema.safeParse(fields);
  if (!parsed.success) return invalid(parsed.error, values);
  const answer = await callAuth(request, "/sign-in/email", { email: parsed.data.email, password: parsed.data.password });
  if (!answer.ok) return failed(answer, values);
  return redirect(answer.body?.twoFactorRedirect ? authHref(twoStepPath, to) : to, { headers: withCookies(answer.cookies) });
}

/** Sign-up, or for a signed-in guest the in-place upgrade of the same account. */
export async function signupAction(request: Request) {
  const fields = await postedFields(request);
  const values = { email: fields.email ?? "", displayName: fields.displayName ?? "" };
  const parsed = signupSchema(getAuthService().passwordPolicy).safeParse(fields);
  if (!parsed.success) return invalid(parsed.error, values);
  const isGuest = Boolean((await currentUser(request))?.isAnonymous);
  const { email, password, displayName } = parsed.data;
  const answer = await callAuth(request, isGuest ? "/guest/upgrade" : "/sign-up/email", { email, password, name: displayName });
  if (!answer.ok) {
    return failed(answer, values, {
      "auth/email-already-in-use": "email",
      "auth/invalid-email": "email",
      "auth/weak-password": "password",
      "auth/display-name-too-long": "displayName",
    });
  }
  return redirect(authHref("/email-verification", destination(request, fields)), { headers: withCookies(answer.cookies) });
}

export async function forgotPasswordAction(request: Request) {
  const fields = await postedFields(request);
  const values = { email: fields.email ?? "" };
  const parsed = forgotPasswordSchema.safeParse(fields);
  if (!parsed.success) return invalid(parsed.error, values);
  const answer = await callAuth(request, "/request-password-reset", { email: parsed.data.email, redirectTo: "/reset-password" });
  if (!answer.ok) return failed(answer, values);
  return data<FormOutcome>({ done: true, values });
}

export async function resetPasswordAction(request: Request) {
  const fields = await postedFields(request);
  // Without JavaScript the token arrives in the address the form posts back to.
  const token = fields.token || new URL(request.url).searchParams.get("token") || "";
  const parsed = resetPasswordSchema(getAuthService().passwordPolicy).safeParse({ ...fields, token });
  if (!parsed.success) return invalid(parsed.error, {});
  const answer = await callAuth(request, "/reset-password", { token, newPassword: parsed.data.password });
  if (!answer.ok) return failed(answer, {}, { "auth/weak-password": "password" });
  return redirect("/login?reset=done", { headers: withCookies(answer.cookies) });
}

/**
 * A new verification link: to the signed-in user's own address, else to the one typed in. The answer is the same
 * whether or not the address has an account or is already verified; only a rate limit shows.
 */
export async function resendVerificationAction(request: Request) {
  const fields = await postedFields(request);
  const user = await currentUser(request);
  const typed = { email: user?.email && !user.isAnonymous ? user.email : (fields.email ?? "") };
  const parsed = resendVerificationSchema.safeParse(typed);
  if (!parsed.success) return invalid(parsed.error, typed);
  const answer = await callAuth(request, "/send-verification-email", { email: parsed.data.email });
  if (answer.status === 429) return failed(answer, typed);
  return data<FormOutcome>({ done: true, values: typed }, { headers: withCookies(answer.cookies) });
}

/** The verification link's page without JavaScript: its button posts the token here. */
export async function verifyEmailAction(request: Request) {
  const token = (await postedFields(request)).token || new URL(request.url).searchParams.get("token") || "";
  const answer = await callAuth(request, `/verify-email?${new URLSearchParams({ token })}`);
  if (!answer.ok) return failed(answer, {});
  return data<FormOutcome>({ done: true }, { headers: withCookies(answer.cookies) });
}

/** Deletes the signed-in account (with its password where it has one); the session cookie goes with it. */
export async function deleteAccountAction(request: Request, schema: z.ZodType<{ confirm: string; password: string }>) {
  const fields = await postedFields(request);
  const parsed = schema.safeParse(fields);
  if (!parsed.success) return invalid(parsed.error, {});
  const { password } = parsed.data;
  const answer = await callAuth(request, "/delete-user", password ? { password } : {});
  if (!answer.ok) return failed(answer, {}, { "auth/missing-password": "password", "auth/invalid-credential": "password" });
  return data<FormOutcome>({ done: true }, { headers: withCookies(answer.cookies) });
}

/** Who is signed in, for screens that show a form only to them (read on the server, so it works without JavaScript). */
export async function signedInAccount(request: Request) {
  const user = await currentUser(request);
  return user ? { label: user.email ?? user.displayName ?? "訪客用戶", hasPassword: !user.isAnonymous } : null;
}

/**
 * The account security screen (read on the server, so it works without JavaScript): the signed-in account's
 * email, whether it has a password (a social-only account has none), and its signed-in devices. A visitor or a
 * guest gets none of it.
 */
export async function accountSecurity(request: Request): Promise<AccountSecurity> {
  const user = await currentUser(request);
  if (!user?.email || user.isAnonymous) return { account: null, guest: Boolean(user?.isAnonymous) };
  const devices = (await callAuth(request, "/devices")).body?.devices ?? [];
  const hasPassword = user.providerData.some((provider) => provider.providerId === "password");
  return { account: { email: user.email, hasPassword, devices }, guest: false, policy: getAuthService().passwordPolicy };
}

const securityNotices = {
  "send-password-link": "設定密碼的連結已經寄出，請在一小時內開啟信中的連結。",
  "end-device": "已登出這個裝置。",
  "end-other-devices": "已登出其他所有裝置。",
} satisfies Partial<Record<AccountSecurityIntent, string>>;

/** The forms of the account security screen, told apart by their `intent` field. */
export async function accountSecurityAction(request: Request) {
  const fields = await postedFields(request);
  const intent = fields.intent as AccountSecurityIntent;
  if (intent === "change-password") return changePasswordAction(request, fields);
  let answer: AuthAnswer;
  if (intent === "end-device") answer = await callAuth(request, "/devices/end", { id: fields.id ?? "" });
  else if (intent === "end-other-devices") answer = await callAuth(request, "/revoke-other-sessions", {});
  else if (intent === "send-password-link") {
    // Only to the signed-in account's own address: the form carries none.
    const user = await currentUser(request);
    if (!user?.email || user.isAnonymous) answer = { ok: false, status: 401, body: { code: "auth/no-current-user" }, cookies: [] };
    else answer = await callAuth(request, "/request-password-reset", { email: user.email, redirectTo: "/reset-password" });
  } else {
    return data<FormOutcome>({ formError: "送出的表單資料格式不正確，請重新整理頁面後再試一次。", code: "form/malformed" }, { status: 400 });
  }
  if (!answer.ok) return failed(answer, {}, {}, intent);
  return data<FormOutcome>({ done: true, intent, notice: securityNotices[intent] }, { headers: withCookies(answer.cookies) });
}

/**
 * A new password in place of the current one (ASVS 6.2.2, 6.2.3), under the sign-up policy; with `signOutOthers`
 * every other session ends (ASVS 7.4.3). A wrong current password counts towards the sign-in lockout of the
 * account (rate-limits.server.ts). Better Auth's own `revokeOtherSessions` would also replace this browser's
 * session, and a form posted without JavaScript renders its answer with the cookie it came with, signed out; so
 * the other sessions end in a second call and this one stays.
 */
async function changePasswordAction(request: Request, fields: Record<string, string>) {
  const intent = "change-password";
  const parsed = changePasswordSchema(getAuthService().passwordPolicy).safeParse(fields);
  if (!parsed.success) return invalid(parsed.error, {}, intent);
  const { currentPassword, password, signOutOthers } = parsed.data;
  const answer = await callAuth(request, "/change-password", { currentPassword, newPassword: password });
  if (answer.body?.code === "auth/invalid-credential") {
    return data<FormOutcome>({ intent, code: answer.body.code, fieldErrors: { currentPassword: "目前的密碼不正確" } }, { status: answer.status });
  }
  if (!answer.ok) return failed(answer, {}, { "auth/weak-password": "password" }, intent);
  if (!signOutOthers) return data<FormOutcome>({ done: true, intent, notice: "密碼已更新。" });
  const ended = await callAuth(request, "/revoke-other-sessions", {});
  const notice = ended.ok ? "密碼已更新，其他裝置都已登出。" : "密碼已更新，但其他裝置沒有成功登出，請在下方「登入中的裝置」再登出一次。";
  return data<FormOutcome>({ done: true, intent, notice });
}
