import { data, redirect, redirectDocument } from "react-router";
import { authFailure as failed, callAuthApi as callAuth, currentIdentity as currentUser, currentSignInMethods, currentUserFields, withCookies, type AuthAnswer, getAuthService, authPaths } from "~/features/auth/index.server";
import { invalidForm as invalid, readForm as postedFields, unknownIntent as malformed } from "~/services/form.server";
import { getEnv } from "~/config/env.server";
import { type AccountData, type SocialProvider, messageForCode, accountName, displayPhoneNumber, givenEmail } from "~/features/auth";
import { safeRedirect } from "~/lib/redirect-rule";
import type { FormResult } from "~/lib/form-result";
import { totpConfirmSchema } from "~/features/sign-in/second-step-schemas";
import { isHostPath } from "~/features/sign-in/auth-paths";
import type { ConfirmIdentity } from "./confirm-identity-page";
import { removeProfilePhoto, saveProfilePhoto } from "~/features/storage/profile-photo.server";
import {
  changeEmailSchema,
  displayNameSchema,
  linkSchema,
  methodSchema,
  setPasswordSchema,
  type AccountCenter,
  type AccountIntent,
  type PhoneIntent,
} from "./account-forms";
import { phoneCodeSchema, phoneSchema } from "~/features/auth/ways-in";

export const accountPath = "/account";

/** Messages carried back in the address: after the photo form (a redirect) and after a provider's pages. */
const addressNotices: Record<string, string> = {
  "photo-saved": "大頭貼已更新。",
  "photo-removed": "大頭貼已移除。",
  linked: "登入方式已連結。",
};

function addressMessages(request: Request) {
  const params = new URL(request.url).searchParams;
  const done = params.get("done");
  const error = params.get("error");
  let alert: string | null = null;
  if (params.get("photo-error")) alert = params.get("photo-error");
  // A provider's page refused or failed (Better Auth names it in `error`): nobody necessarily cancelled anything.
  else if (error) alert = /already_linked/.test(error) ? messageForCode("auth/provider-already-linked") : "連結失敗，請再試一次。";
  return { notice: (done && addressNotices[done]) || null, alert: alert?.slice(0, 200) ?? null };
}

/** The account center's data, read on the server so the screen works without JavaScript. */
export async function accountCenter(request: Request): Promise<AccountCenter> {
  const user = await currentUserFields(request);
  if (!user?.email || user.isAnonymous) return { account: null, guest: Boolean(user?.isAnonymous) };
  const signInMethods = await currentSignInMethods(request);
  // Signed out in between (a page's session is looked up once, so only an action's second look can differ).
  if (!signInMethods) return { account: null, guest: false };
  return {
    account: {
      email: givenEmail(user.email),
      emailVerified: user.emailVerified,
      displayName: user.displayName ?? "",
      passkeyAccount: { userId: user.uid, name: accountName(user.email, user.phoneNumber) },
      photoURL: user.photoURL,
      signInMethods,
      phoneNumber: user.phoneNumber ? displayPhoneNumber(user.phoneNumber) : null,
    },
    guest: false,
    policy: getAuthService().passwordPolicy,
    ...addressMessages(request),
  };
}


function answered(answer: AuthAnswer, intent: AccountIntent, notice: string, fields: Partial<Record<string, string>> = {}, values: Record<string, string> = {}) {
  if (!answer.ok) return failed(answer, values, fields, intent);
  return data<FormResult>({ done: true, intent, notice, values }, { headers: withCookies(answer.cookies) });
}

/** The forms of the account center, told apart by their `intent` field. */
export async function accountCenterAction(request: Request) {
  const fields = await postedFields(request);
  const intent = fields.intent as AccountIntent;
  switch (intent) {
    case "update-name": {
      const parsed = displayNameSchema.safeParse(fields);
      if (!parsed.success) return invalid(parsed.error, { displayName: fields.displayName ?? "" }, intent);
      const answer = await callAuth(request, authPaths.updateUser, { name: parsed.data.displayName });
      return answered(answer, intent, "顯示名稱已更新。", { "auth/display-name-too-long": "displayName", "auth/invalid-display-name": "displayName" });
    }
    case "change-email": {
      const values = { newEmail: fields.newEmail ?? "" };
      const parsed = changeEmailSchema.safeParse(fields);
      if (!parsed.success) return invalid(parsed.error, values, intent);
      const user = await currentUser(request);
      if (user?.email === parsed.data.newEmail) {
        return data<FormResult>({ intent, values, code: "auth/same-email", fieldErrors: { newEmail: messageForCode("auth/same-email") } }, { status: 400 });
      }
      const answer = await callAuth(request, authPaths.changeEmail, { newEmail: parsed.data.newEmail, callbackURL: accountPath });
      const notice = `確認信已寄到 ${parsed.data.newEmail}。開啟信中的連結後，帳號才會改用新的地址；在那之前仍使用目前的地址。`;
      return answered(answer, intent, notice, { "auth/invalid-email": "newEmail" }, values);
    }
    case "set-password": {
      const parsed = setPasswordSchema(getAuthService().passwordPolicy).safeParse(fields);
      if (!parsed.success) return invalid(parsed.error, {}, intent);
      const answer = await callAuth(request, authPaths.setPassword, { newPassword: parsed.data.password });
      return answered(answer, intent, "密碼已設定，之後也可以用電子郵件和密碼登入。", { "auth/weak-password": "password" });
    }
    case "remove-method": {
      const parsed = methodSchema.safeParse(fields);
      if (!parsed.success) return malformed();
      const answer = await callAuth(request, authPaths.signInMethodsRemove, { id: parsed.data.id });
      return answered(answer, intent, "登入方式已移除。");
    }
    case "link-method": {
      const parsed = linkSchema.safeParse(fields);
      if (!parsed.success) return malformed();
      const answer = await callAuth(request, authPaths.linkSocial, {
        provider: parsed.data.provider,
        callbackURL: `${accountPath}?done=linked`,
        errorCallbackURL: accountPath,
      });
      if (!answer.ok || !answer.body?.url) return failed(answer, {}, {}, intent);
      // The provider's own pages, then back to /account (a plain redirect: it works without JavaScript).
      return redirect(answer.body.url, { headers: withCookies(answer.cookies) });
    }
    case "send-phone-code":
    case "add-phone":
    case "remove-phone":
      return phoneNumberAction(request, intent, fields);
    default:
      return malformed();
  }
}

/**
 * The phone number's forms (sign-in-methods-section.tsx): a code texted to the typed number, then the number
 * attached with it (the sign-in layer asks for a recent sign-in and tells the account), or the number removed
 * (never the last way in). The same endpoints as `/login/phone`, so the same limits and messages.
 */
async function phoneNumberAction(request: Request, intent: PhoneIntent, fields: Record<string, string>) {
  const values = { phoneNumber: fields.phoneNumber ?? "" };
  const numberField = { "auth/invalid-phone-number": "phoneNumber" };
  if (intent === "remove-phone") return answered(await callAuth(request, authPaths.phoneNumberRemove, {}), intent, "手機號碼已移除，不能再用簡訊驗證碼登入。");
  if (intent === "send-phone-code") {
    const parsed = phoneSchema.safeParse(fields);
    if (!parsed.success) return invalid(parsed.error, values, intent);
    const answer = await callAuth(request, authPaths.phoneNumberSendOtp, { phoneNumber: parsed.data.phoneNumber }, undefined, fields);
    return answered(answer, intent, `驗證碼已傳到 ${parsed.data.phoneNumber}，5 分鐘內有效。`, numberField, values);
  }
  const parsed = phoneCodeSchema.safeParse(fields);
  if (!parsed.success) return invalid(parsed.error, values, intent);
  const answer = await callAuth(request, authPaths.phoneNumberVerify, { phoneNumber: parsed.data.phoneNumber, code: parsed.data.code, updatePhoneNumber: true });
  return answered(answer, intent, "手機號碼已加入，之後也可以用簡訊驗證碼登入。", { ...numberField, "auth/invalid-verification-code": "code", "auth/code-expired": "code" }, values);
}

/** The most a photo form may carry (the storage limit is checked again by the storage service). */
export const photoFormLimitBytes = () => getAuthService().env.STORAGE_MAX_UPLOAD_BYTES + 64 * 1024;

/**
 * The photo forms (`/account/photo`): a new photo (multipart, field `photo`), or `intent=remove`. Both answer with
 * a redirect back to /account carrying the outcome, so the page after works the same with or without JavaScript.
 */
export async function profilePhotoAction(request: Request) {
  const user = await currentUser(request);
  if (!user?.email || user.isAnonymous) return redirect(`/login?redirectTo=${encodeURIComponent(accountPath)}`);
  // No #profile: the result line above the sections takes focus and comes into view itself (below the sticky bar).
  const back = (outcome: { ok: true; done: string } | { ok: false; message: string }) =>
    redirect(`${accountPath}?${new URLSearchParams(outcome.ok ? { done: outcome.done } : { "photo-error": outcome.message })}`);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return back({ ok: false, message: "送出的表單資料格式不正確，請重新整理頁面後再試一次。" });
  }
  if (form.get("intent") === "remove") {
    const removed = await removeProfilePhoto(user.uid);
    return back(removed.ok ? { ok: true, done: "photo-removed" } : removed);
  }
  const photo = form.get("photo");
  if (!(photo instanceof File) || photo.size === 0) return back({ ok: false, message: "請先選擇一張圖片。" });
  const saved = await saveProfilePhoto(user.uid, Buffer.from(await photo.arrayBuffer()));
  return back(saved.ok ? { ok: true, done: "photo-saved" } : saved);
}

/** The copy of the account's data, or null for a visitor or a guest. */
export async function accountDataOf(request: Request): Promise<AccountData | null> {
  const user = await currentUser(request);
  if (!user?.email || user.isAnonymous) return null;
  const answer = await callAuth(request, authPaths.accountData);
  return answer.ok ? (answer.body as unknown as AccountData) : null;
}

/** `GET /account/data.json`: the same copy as a download. */
export async function accountDataDownload(request: Request): Promise<Response> {
  const copy = await accountDataOf(request);
  if (!copy) return Response.json({ code: "auth/no-current-user", message: messageForCode("auth/no-current-user") }, { status: 401 });
  return new Response(JSON.stringify(copy, null, 2), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="my-data-${copy.exportedAt.slice(0, 10)}.json"`,
      "cache-control": "private, no-store",
    },
  });
}

/**
 * The confirm-identity step: the password (`intent=password`), a two-step code (`intent=code`: a right one renews
 * the session, two-step.server.ts), or a new sign-in through one of the account's providers (`intent=provider`),
 * then back where the change was asked for. A passkey signs in anew in the browser (confirm-identity-page.tsx).
 */
export async function confirmIdentityAction(request: Request) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), getAuthService().env.SITE_URL, accountPath);
  // An app's sign-in asked for this proof (prompt=login, max_age): its interaction is the host's, a full page load.
  const back = isHostPath(redirectTo) ? redirectDocument : redirect;
  const fields = await postedFields(request);
  if (fields.intent === "provider") {
    const parsed = linkSchema.safeParse(fields);
    if (!parsed.success) return malformed();
    const answer = await callAuth(request, authPaths.signInSocial, { provider: parsed.data.provider, callbackURL: redirectTo, errorCallbackURL: redirectTo });
    if (!answer.ok || !answer.body?.url) return failed(answer, {});
    return redirect(answer.body.url, { headers: withCookies(answer.cookies) });
  }
  if (fields.intent === "code") {
    const parsed = totpConfirmSchema.safeParse(fields);
    if (!parsed.success) return invalid(parsed.error, {}, "code");
    const answer = await callAuth(request, authPaths.twoFactorVerifyTotp, { code: parsed.data.code });
    if (!answer.ok) return failed(answer, {}, { "auth/invalid-verification-code": "code", "auth/code-already-used": "code" }, "code");
    return back(redirectTo, { headers: withCookies(answer.cookies) });
  }
  const password = fields.password ?? "";
  if (!password) return data<FormResult>({ fieldErrors: { password: "請輸入密碼" } }, { status: 400 });
  const answer = await callAuth(request, authPaths.confirmIdentity, { password });
  if (answer.body?.code === "auth/invalid-credential") {
    return data<FormResult>({ code: answer.body.code, fieldErrors: { password: "密碼不正確" } }, { status: answer.status });
  }
  if (!answer.ok) return failed(answer, {});
  return back(redirectTo, { headers: withCookies(answer.cookies) });
}

/** What the confirm step can offer this account: its password, a two-step code, a passkey, the providers it signs in with. */
export async function confirmIdentityScreen(request: Request): Promise<ConfirmIdentity> {
  // An app that asked for a fresh sign-in (max_age, prompt=login) is named by its registered name, looked up from
  // its id: a name that is not a registered app's is never shown.
  const appId = new URL(request.url).searchParams.get("app");
  const registered = appId ? getEnv().oidcClients.find((client) => client.client_id === appId) : undefined;
  const appName = registered ? (registered.client_name ?? registered.client_id) : null;
  const user = await currentUser(request);
  if (!user?.email || user.isAnonymous) return { account: null, appName };
  const methods = user.providerData.map((method) => method.providerId);
  const session = (await callAuth(request, authPaths.getSession)).body as { user?: { twoFactorEnabled?: boolean | null } } | null;
  const passkeys = (await callAuth(request, authPaths.passkeyList)).body as { passkeys?: unknown[] } | null;
  return {
    account: {
      email: accountName(user.email, user.phoneNumber),
      hasPassword: methods.includes("password"),
      twoStep: Boolean(session?.user?.twoFactorEnabled),
      passkeys: Boolean(passkeys?.passkeys?.length),
      providers: methods.filter((method): method is SocialProvider => method !== "password"),
    },
    appName,
  };
}
