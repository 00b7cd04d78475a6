import { data } from "react-router";
import type { z } from "zod";
import type { FormResult } from "~/lib/form-result";
import { invalidForm, parseForm, readForm, unknownIntent } from "~/services/form.server";
import { getAuthService, authFailure, callAuthApi, currentDevices, currentIdentity, hasPasswordWayIn, withCookies, type AuthAnswer, authPaths, deletionSummary } from "~/features/auth/index.server";
import type { AccountSecurity, AccountSecurityIntent } from "./account-security";
import { changePasswordSchema } from "./account-schemas";
import { resetPasswordPage, accountName, displayPhoneNumber, givenEmail } from "~/features/auth";
import { recentActivity } from "./account-activity.server";

// The account screens' server work (current plan, deletion, security): read on the server, so every screen and
// form works without JavaScript; every change goes through the sign-in layer's API in-process.

/** Deletes the signed-in account (with its password where it has one); the session cookie goes with it. */
export async function deleteAccountAction(request: Request, schema: z.ZodType<{ confirm: string; password: string }>) {
  const { value, invalid } = await parseForm(request, schema);
  if (invalid) return invalid;
  const user = await currentIdentity(request);
  // What went, read before it goes (the page after names it, as the mail does).
  const went = user ? await deletionSummary(getAuthService().database.db, user.uid, "went") : [];
  const answer = await callAuthApi(request, authPaths.deleteUser, value.password ? { password: value.password } : {});
  if (!answer.ok) return authFailure(answer, {}, { "auth/missing-password": "password", "auth/invalid-credential": "password" });
  return data<FormResult>({ done: true, values: { went: went.join("\n") } }, { headers: withCookies(answer.cookies) });
}

/** Who is signed in, for screens that show a form only to them (read on the server, so it works without JavaScript). */
export async function signedInAccount(request: Request) {
  const user = await currentIdentity(request);
  if (!user) return null;
  const goes = user.isAnonymous ? [] : await deletionSummary(getAuthService().database.db, user.uid, "will");
  // A social or phone-only account has no password to give (the form then asks for the word alone).
  const hasPassword = hasPasswordWayIn(user);
  return { label: accountName(user.email, user.phoneNumber) || user.displayName || "訪客", hasPassword, goes };
}

/**
 * The account security screen (read on the server, so it works without JavaScript): the signed-in account's
 * email, whether it has a password (a social-only account has none), and its signed-in devices. A visitor or a
 * guest gets none of it.
 */
export async function accountSecurity(request: Request): Promise<AccountSecurity> {
  const user = await currentIdentity(request);
  if (!user?.email || user.isAnonymous) return { account: null, guest: Boolean(user?.isAnonymous) };
  const devices = (await currentDevices(request)) ?? [];
  const hasPassword = hasPasswordWayIn(user);
  const activity = await recentActivity(getAuthService().database, user.uid);
  const phoneNumber = user.phoneNumber ? displayPhoneNumber(user.phoneNumber) : null;
  return { account: { email: givenEmail(user.email), phoneNumber, hasPassword, devices, activity }, guest: false, policy: getAuthService().passwordPolicy };
}

const securityNotices = {
  "send-password-link": "設定密碼的連結已經寄出，請在一小時內開啟信中的連結。",
  "end-device": "已登出這個裝置。",
  "end-other-devices": "已登出其他所有裝置。",
  "not-me": "已登出其他所有裝置。請馬上在「更改密碼」設定新密碼；沒有密碼的帳號，請用「寄送設定密碼連結」設定一組。",
} satisfies Partial<Record<AccountSecurityIntent, string>>;

/** The forms of the account security screen, told apart by their `intent` field. */
export async function accountSecurityAction(request: Request) {
  const fields = await readForm(request);
  const intent = fields.intent as AccountSecurityIntent;
  if (intent === "change-password") return changePasswordAction(request, fields);
  let answer: AuthAnswer;
  if (intent === "end-device") answer = await callAuthApi(request, authPaths.devicesEnd, { id: fields.id ?? "" });
  // 「這不是我」: every other device is signed out at once; the notice leads on to the password form.
  else if (intent === "end-other-devices" || intent === "not-me") answer = await callAuthApi(request, authPaths.revokeOtherSessions, {});
  else if (intent === "send-password-link") {
    // Only to the signed-in account's own address: the form carries none.
    const user = await currentIdentity(request);
    if (!user?.email || user.isAnonymous) answer = { ok: false, status: 401, body: { code: "auth/no-current-user" }, cookies: [], retryAfter: null };
    else answer = await callAuthApi(request, authPaths.requestPasswordReset, { email: user.email, redirectTo: resetPasswordPage }, undefined, fields);
  } else {
    return unknownIntent();
  }
  if (!answer.ok) return authFailure(answer, {}, {}, intent);
  return data<FormResult>({ done: true, intent, notice: securityNotices[intent] }, { headers: withCookies(answer.cookies) });
}

/**
 * A new password in place of the current one (ASVS 6.2.2, 6.2.3), under the sign-up policy; with `signOutOthers`
 * every other session ends (ASVS 7.4.3). A wrong current password counts towards the sign-in lockout of the
 * account (the endpoint table's `lockout`). Better Auth's own `revokeOtherSessions` would also replace this
 * browser's session, and a form posted without JavaScript renders its answer with the cookie it came with, signed
 * out; so the other sessions end in a second call and this one stays.
 */
async function changePasswordAction(request: Request, fields: Record<string, string>) {
  const intent = "change-password";
  const parsed = changePasswordSchema(getAuthService().passwordPolicy).safeParse(fields);
  if (!parsed.success) return invalidForm(parsed.error, {}, intent);
  const { currentPassword, password, signOutOthers } = parsed.data;
  const answer = await callAuthApi(request, authPaths.changePassword, { currentPassword, newPassword: password });
  if (answer.body?.code === "auth/invalid-credential") {
    return data<FormResult>({ intent, code: answer.body.code, fieldErrors: { currentPassword: "目前的密碼不正確" } }, { status: answer.status });
  }
  if (!answer.ok) return authFailure(answer, {}, { "auth/weak-password": "password" }, intent);
  if (!signOutOthers) return data<FormResult>({ done: true, intent, notice: "密碼已更新。" });
  const ended = await callAuthApi(request, authPaths.revokeOtherSessions, {});
  const notice = ended.ok ? "密碼已更新，其他裝置都已登出。" : "密碼已更新，但其他裝置沒有成功登出，請在下方「登入中的裝置」再登出一次。";
  return data<FormResult>({ done: true, intent, notice });
}
