import { data, redirect, redirectDocument } from "react-router";
import type { FormResult } from "~/lib/form-result";
import { invalidForm, parseForm, readForm } from "~/services/form.server";
import { safeRedirect } from "~/lib/redirect-rule";
import { getAuthService, authFailure, callAuthApi, currentIdentity, withCookies, authPaths, screenActionOf, type SignInKit, type WayInId } from "~/features/auth/index.server";
export { actionRetryAfter } from "~/features/auth/index.server";
import { authHref, isHostPath, twoStepPath } from "./auth-paths";
import { backupCodeSchema, twoStepCodeSchema } from "./second-step-schemas";
import { forgotPasswordSchema, loginSchema, resendVerificationSchema, resetPasswordSchema, signupSchema } from "./sign-in-schemas";
import { resetPasswordPage } from "~/features/auth";

// The sign-in screens' route actions: each reads its form with the form kit, checks it with the screen's schema
// and calls the sign-in layer in-process, so the forms work without JavaScript under every rule of the API.

/** Where to go afterwards: the `redirectTo` of the form or of the address, judged by the one redirect rule. */
function destination(request: Request, fields: Record<string, string>) {
  const target = fields.redirectTo ?? new URL(request.url).searchParams.get("redirectTo");
  return safeRedirect(target, getAuthService().env.SITE_URL);
}

/** The password (or emailed link) was right and the account has two-step sign-in: the code page comes next. */
const pendingSecondStep = (answer: { body: unknown }) => Boolean((answer.body as { twoFactorRedirect?: boolean } | null)?.twoFactorRedirect);

const typedEmail = (fields: Record<string, string>) => ({ email: fields.email ?? "" });

/** The social providers the login screen offers buttons for. */
export async function loginAction(request: Request) {
  const fields = await readForm(request);
  const to = destination(request, fields);
  if (fields.intent === "guest" || fields.intent === "logout") {
    const answer = await callAuthApi(request, fields.intent === "guest" ? authPaths.signInAnonymous : authPaths.signOut, {}, undefined, fields);
    if (!answer.ok) return authFailure(answer);
    return fields.intent === "guest" ? goTo(to, answer.cookies) : redirect(authHref("/login", to), { headers: withCookies(answer.cookies) });
  }
  const parsed = loginSchema.safeParse(fields);
  if (!parsed.success) return invalidForm(parsed.error, typedEmail(fields));
  const answer = await callAuthApi(request, authPaths.signInEmail, { email: parsed.data.email, password: parsed.data.password });
  if (!answer.ok) return authFailure(answer, typedEmail(fields));
  if (pendingSecondStep(answer)) return redirect(authHref(twoStepPath, to), { headers: withCookies(answer.cookies) });
  return goTo(to, answer.cookies);
}

/** After a sign-in: the destination, loaded as a whole page when the host answers it (the app's sign-in). */
function goTo(to: string, cookies: string[]) {
  return (isHostPath(to) ? redirectDocument : redirect)(to, { headers: withCookies(cookies) });
}

/** Sign-up, or for a signed-in guest the in-place upgrade of the same account. */
export async function signupAction(request: Request) {
  const keep = (fields: Record<string, string>) => ({ email: fields.email ?? "", displayName: fields.displayName ?? "" });
  const { fields, value, invalid } = await parseForm(request, signupSchema(getAuthService().passwordPolicy), keep);
  if (invalid) return invalid;
  const isGuest = Boolean((await currentIdentity(request))?.isAnonymous);
  const { email, password, displayName } = value;
  const answer = await callAuthApi(request, isGuest ? authPaths.guestUpgrade : authPaths.signUpEmail, { email, password, name: displayName }, undefined, fields);
  if (!answer.ok) {
    return authFailure(answer, keep(fields), {
      "auth/email-already-in-use": "email",
      "auth/invalid-email": "email",
      "auth/weak-password": "password",
      "auth/display-name-too-long": "displayName",
      "auth/invalid-display-name": "displayName",
    });
  }
  // A query keeps the next screen server-rendered, so even without JavaScript it knows the new session (not the
  // prerendered copy, made for nobody).
  const next = new URL(authHref("/email-verification", destination(request, fields)), "http://x");
  next.searchParams.set("from", "signup");
  return redirect(`${next.pathname}${next.search}`, { headers: withCookies(answer.cookies) });
}

export async function forgotPasswordAction(request: Request) {
  const { fields, value, invalid } = await parseForm(request, forgotPasswordSchema, typedEmail);
  if (invalid) return invalid;
  const answer = await callAuthApi(request, authPaths.requestPasswordReset, { email: value.email, redirectTo: resetPasswordPage }, undefined, fields);
  if (!answer.ok) return authFailure(answer, typedEmail(fields));
  return data<FormResult>({ done: true, values: typedEmail(fields) });
}

export async function resetPasswordAction(request: Request) {
  const fields = await readForm(request);
  // Without JavaScript the token arrives in the address the form posts back to.
  const token = fields.token || new URL(request.url).searchParams.get("token") || "";
  const parsed = resetPasswordSchema(getAuthService().passwordPolicy).safeParse({ ...fields, token });
  if (!parsed.success) return invalidForm(parsed.error);
  const answer = await callAuthApi(request, authPaths.resetPassword, { token, newPassword: parsed.data.password });
  if (!answer.ok) return authFailure(answer, {}, { "auth/weak-password": "password" });
  return redirect("/login?reset=done", { headers: withCookies(answer.cookies) });
}

/**
 * A new verification link: to the signed-in user's own address, else to the one typed in. The answer is the same
 * whether or not the address has an account or is already verified; only a rate limit shows.
 */
export async function resendVerificationAction(request: Request) {
  const fields = await readForm(request);
  const user = await currentIdentity(request);
  const typed = { email: user?.email && !user.isAnonymous ? user.email : (fields.email ?? "") };
  const parsed = resendVerificationSchema.safeParse(typed);
  if (!parsed.success) return invalidForm(parsed.error, typed);
  const answer = await callAuthApi(request, authPaths.sendVerificationEmail, { email: parsed.data.email }, undefined, fields);
  if (answer.status === 429) return authFailure(answer, typed);
  return data<FormResult>({ done: true, values: typed }, { headers: withCookies(answer.cookies) });
}

/** The verification link's page without JavaScript: its button posts the token here. */
export async function verifyEmailAction(request: Request) {
  const token = (await readForm(request)).token || new URL(request.url).searchParams.get("token") || "";
  const answer = await callAuthApi(request, authPaths.verifyEmail, undefined, { token });
  if (!answer.ok) return authFailure(answer);
  return data<FormResult>({ done: true }, { headers: withCookies(answer.cookies) });
}

/** `/login/two-step`: the app code (or a backup code) of a pending sign-in; the account is signed in on success. */
export async function twoStepChallengeAction(request: Request) {
  const fields = await readForm(request);
  const intent = fields.intent === "backup" ? "backup" : "totp";
  const parsed = (intent === "backup" ? backupCodeSchema : twoStepCodeSchema).safeParse(fields);
  if (!parsed.success) return invalidForm(parsed.error, {}, intent);
  const code = "backupCode" in parsed.data ? parsed.data.backupCode : parsed.data.code;
  const path = intent === "backup" ? authPaths.twoFactorVerifyBackupCode : authPaths.twoFactorVerifyTotp;
  const answer = await callAuthApi(request, path, { code, trustDevice: parsed.data.trustDevice });
  const field = intent === "backup" ? "backupCode" : "code";
  if (!answer.ok) return authFailure(answer, {}, { "auth/invalid-verification-code": field, "auth/code-already-used": field, "auth/invalid-backup-code": field }, intent);
  return goTo(destination(request, fields), answer.cookies);
}

/** A way in's screen action, written in its server twin and handed the sign-in kit (way-in-plugins.server.ts). */
export function wayInAction(id: WayInId, request: Request) {
  return screenActionOf(id)(request, signInKit);
}

const signInKit: SignInKit = {
  call: callAuthApi,
  fail: authFailure,
  signedIn: (request, fields, answer) => {
    const to = destination(request, fields);
    return pendingSecondStep(answer) ? redirect(authHref(twoStepPath, to), { headers: withCookies(answer.cookies) }) : goTo(to, answer.cookies);
  },
  destination,
};
