import { data, redirect } from "react-router";
import QRCode from "qrcode";
import type { FormResult } from "~/lib/form-result";
import { invalidForm, readForm, unknownIntent } from "~/services/form.server";
import { authFailure, callAuthApi, currentIdentity, hasPasswordWayIn, requestAfter, withCookies, type AuthAnswer, authPaths } from "~/features/auth/index.server";
import { passkeyNameSchema, totpConfirmSchema } from "~/features/sign-in/second-step-schemas";
import type { PasskeyListItem, PasskeySettings, TwoStepEnrolment, TwoStepOutcome, TwoStepSettings } from "./second-factor-shapes";
import { accountName } from "~/features/auth";

// The account screens of the second ways in: /account/two-step and /account/passkeys (loaders and actions).

/**
 * Turning two-step sign-in on or off replaces the session (Better Auth issues a new cookie): the answer is a
 * redirect carrying it, so the page after it (with or without JavaScript) is read with the new session.
 */
const twoStepSettingsPath = "/account/two-step";

const notSignedIn: AuthAnswer = { ok: false, status: 401, body: { code: "auth/no-current-user" }, cookies: [], retryAfter: null };

async function sessionUser(request: Request) {
  const user = await currentIdentity(request);
  return user?.email && !user.isAnonymous ? user : null;
}

async function twoStepEnabled(request: Request): Promise<boolean> {
  const session = (await callAuthApi(request, authPaths.getSession)).body as { user?: { twoFactorEnabled?: boolean | null } } | null;
  return Boolean(session?.user?.twoFactorEnabled);
}

/** `/account/two-step`: whether two-step sign-in is on, and whether the account has a password to confirm with. */
export async function twoStepSettings(request: Request): Promise<TwoStepSettings> {
  const user = await sessionUser(request);
  if (!user?.email) return { account: null };
  const hasPassword = hasPasswordWayIn(user);
  return { account: { email: accountName(user.email, user.phoneNumber), hasPassword, enabled: await twoStepEnabled(request) } };
}

/** What the authenticator app needs: the QR code of the otpauth:// address and the secret to type in. */
async function enrolmentOf(totpURI: string, backupCodes: string[]): Promise<TwoStepEnrolment> {
  const secret = new URL(totpURI).searchParams.get("secret") ?? "";
  const qrSvg = await QRCode.toString(totpURI, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { totpURI, qrSvg, secret: secret.replace(/(.{4})/g, "$1 ").trim(), backupCodes };
}

async function postedEnrolment(fields: Record<string, string>): Promise<TwoStepEnrolment | undefined> {
  const uri = fields.totpURI ?? "";
  if (!uri.startsWith("otpauth://totp/") || uri.length > 500) return undefined;
  const codes = (fields.backupCodes ?? "").split(" ").filter((code) => /^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/.test(code));
  return enrolmentOf(uri, codes.slice(0, 10));
}

/**
 * The forms of `/account/two-step`: start the enrolment (password, where the account has one), confirm it with the
 * app's first code, turn it off (password, or for an account without one a current code, which also renews the
 * session for the recent-sign-in guard), make a new set of backup codes (password, where the account has one).
 */
export async function twoStepSettingsAction(request: Request) {
  const fields = await readForm(request);
  const intent = fields.intent ?? "";
  if (!(await sessionUser(request))) return authFailure(notSignedIn, {}, {}, intent);
  if (intent === "enable") {
    const answer = await callAuthApi(request, authPaths.twoFactorEnable, { password: fields.password ?? "" });
    const body = answer.body as { totpURI?: string; backupCodes?: string[] } | null;
    if (!answer.ok || !body?.totpURI) return authFailure(answer, {}, { "auth/invalid-credential": "password", "auth/missing-password": "password" }, intent);
    const enrolment = await enrolmentOf(body.totpURI, body.backupCodes ?? []);
    return data<TwoStepOutcome>({ intent, enrolment }, { headers: withCookies(answer.cookies) });
  }
  if (intent === "confirm" || intent === "disable-with-code") {
    const parsed = totpConfirmSchema.safeParse(fields);
    if (!parsed.success) return invalidForm(parsed.error, {}, intent);
    const checked = await callAuthApi(request, authPaths.twoFactorVerifyTotp, { code: parsed.data.code });
    if (!checked.ok) {
      const answer = authFailure(checked, {}, { "auth/invalid-verification-code": "code", "auth/code-already-used": "code" }, intent);
      // After a typo the enrolment stays on screen (only this person's own secret, posted back by their form).
      const shown = intent === "confirm" ? await postedEnrolment(fields) : undefined;
      return shown ? data<TwoStepOutcome>({ ...answer.data, enrolment: shown }, answer.init ?? undefined) : answer;
    }
    if (intent === "confirm") {
      return redirect(`${twoStepSettingsPath}?done=on`, { headers: withCookies(checked.cookies) });
    }
    // A right code renewed the session: the next call goes with its cookie, as the browser's next request would.
    const disabled = await callAuthApi(requestAfter(request, checked), authPaths.twoFactorDisable, {});
    const answer = { ...disabled, cookies: [...checked.cookies, ...disabled.cookies] };
    if (!answer.ok) return authFailure(answer, {}, {}, intent);
    return redirect(`${twoStepSettingsPath}?done=off`, { headers: withCookies(answer.cookies) });
  }
  if (intent === "disable") {
    const answer = await callAuthApi(request, authPaths.twoFactorDisable, { password: fields.password ?? "" });
    if (!answer.ok) return authFailure(answer, {}, { "auth/invalid-credential": "password", "auth/missing-password": "password" }, intent);
    return redirect(`${twoStepSettingsPath}?done=off`, { headers: withCookies(answer.cookies) });
  }
  if (intent === "backup-codes") {
    const answer = await callAuthApi(request, authPaths.twoFactorGenerateBackupCodes, { password: fields.currentPassword ?? "" });
    const backupCodes = (answer.body as { backupCodes?: string[] } | null)?.backupCodes;
    if (!answer.ok || !backupCodes) return authFailure(answer, {}, { "auth/invalid-credential": "currentPassword" }, intent);
    return data<TwoStepOutcome>({ intent, done: true, backupCodes }, { headers: withCookies(answer.cookies) });
  }
  return unknownIntent();
}

/** `/account/passkeys`: the signed-in account's passkeys. */
export async function passkeySettings(request: Request): Promise<PasskeySettings> {
  const user = await sessionUser(request);
  if (!user?.email) return { account: null };
  const list = (await callAuthApi(request, authPaths.passkeyList)).body as { passkeys?: PasskeyListItem[] } | null;
  const email = accountName(user.email, user.phoneNumber);
  return { account: { email, userId: user.uid, displayName: user.displayName || email, passkeys: list?.passkeys ?? [] } };
}

/** Renaming and removing a passkey work without JavaScript (adding one needs the browser's WebAuthn API). */
export async function passkeySettingsAction(request: Request) {
  const fields = await readForm(request);
  const intent = fields.intent ?? "";
  if (intent === "rename") {
    const parsed = passkeyNameSchema.safeParse(fields);
    if (!parsed.success) return invalidForm(parsed.error, { name: fields.name ?? "", id: fields.id ?? "" }, `rename:${fields.id ?? ""}`);
    const answer = await callAuthApi(request, authPaths.passkeyRename, parsed.data);
    if (!answer.ok) return authFailure(answer, {}, {}, `rename:${parsed.data.id}`);
    return data<FormResult>({ intent: "passkeys", done: true, notice: `已改名為「${parsed.data.name}」。` });
  }
  if (intent === "delete") {
    const answer = await callAuthApi(request, authPaths.passkeyDelete, { id: fields.id ?? "" });
    if (!answer.ok) return authFailure(answer, {}, {}, "passkeys");
    const name = (answer.body as { name?: string } | null)?.name ?? "";
    return data<FormResult>({ intent: "passkeys", done: true, notice: `已移除密碼金鑰「${name}」，它不能再用來登入。` });
  }
  return unknownIntent();
}

