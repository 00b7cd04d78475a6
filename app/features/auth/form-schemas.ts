import { z } from "~/lib/zod";
import { normalizePassword, passwordProblem, type PasswordPolicy } from "./password-policy";

/**
 * One zod schema per sign-in form, run in the browser before submitting (when JavaScript is on) and again by the
 * route action on the server (always). Messages are the Traditional-Chinese ones shown beside each field.
 */
const email = z
  .string()
  .trim()
  .min(1, "請輸入電子郵件地址")
  .max(254, "電子郵件格式不正確")
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "電子郵件格式不正確");
const text = z.string().default("");

function newPassword(policy: PasswordPolicy) {
  return z.string().superRefine((value, ctx) => {
    const problem = passwordProblem(value, policy);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
}

const sameConfirmation = (value: { password: string; confirm: string }, ctx: z.RefinementCtx) => {
  if (value.confirm !== value.password) ctx.addIssue({ code: "custom", path: ["confirm"], message: "兩次輸入的密碼不一致" });
};

export const loginSchema = z.object({ email, password: text.pipe(z.string().min(1, "請輸入密碼")) });

export const signupSchema = (policy: PasswordPolicy) =>
  z
    .object({
      displayName: text.pipe(z.string().trim().min(1, "請輸入顯示名稱").max(100, "顯示名稱不可超過 100 個字元")),
      email,
      password: text.pipe(newPassword(policy)),
      confirm: text,
    })
    .superRefine(sameConfirmation);

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = (policy: PasswordPolicy) =>
  z
    .object({ token: text.pipe(z.string().min(1, "連結無效、已過期或已使用過，請重新申請")), password: text.pipe(newPassword(policy)), confirm: text })
    .superRefine(sameConfirmation);

/** Resending a verification link: the address typed in, unless the signed-in user's own is used. */
export const resendVerificationSchema = z.object({ email });

export const accountDeletionSchema = (confirmWord: string) =>
  z.object({
    confirm: text.pipe(z.string().trim().refine((value) => value === confirmWord, `請輸入「${confirmWord}」確認刪除。`)),
    password: text,
  });

/**
 * Changing the password on the account security screen: the current one, the new one twice, and whether every
 * other device is signed out (a checkbox, sent only when ticked).
 */
export const changePasswordSchema = (policy: PasswordPolicy) =>
  z
    .object({
      currentPassword: text.pipe(z.string().min(1, "請輸入目前的密碼")),
      password: text.pipe(newPassword(policy)),
      confirm: text,
      signOutOthers: text.transform((value) => value === "on"),
    })
    .superRefine(sameConfirmation)
    .superRefine((value, ctx) => {
      if (normalizePassword(value.password) === normalizePassword(value.currentPassword)) {
        ctx.addIssue({ code: "custom", path: ["password"], message: "新密碼不可與目前的密碼相同" });
      }
    });

export type FieldErrors = Partial<Record<string, string>>;

/** What a sign-in form's action hands back to its screen when it does not redirect. Never a password. */
export interface FormOutcome {
  fieldErrors?: FieldErrors;
  formError?: string;
  code?: string;
  /** Typed values to fill in again (email, display name). */
  values?: Record<string, string>;
  /** The form did its work (a mail went out, an account was deleted). */
  done?: boolean;
  /** What to tell the user when it did, where the screen does not say it itself. */
  notice?: string;
  /** Which form answered, on a screen with several (its `intent` field). */
  intent?: string;
}

/** The first message per field, keyed by the field's name. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}

/** A form's fields as plain strings (files and repeated names have no place in these forms). */
export function formFields(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string") fields[name] ??= value;
  return fields;
}

/** The six digits of an authenticator app (spaces allowed, as the apps show them in groups). */
const totpCode = text.pipe(z.string().transform((value) => value.replace(/\s+/g, "")).pipe(z.string().regex(/^\d{6}$/, "請輸入驗證器 App 顯示的 6 位數字")));

const trustDevice = text.transform((value) => value === "on");

/** The code page of a pending two-step sign-in: the app's code, and whether this device is remembered 30 days. */
export const twoStepCodeSchema = z.object({ code: totpCode, trustDevice });

/** The same page with a backup code instead (`abcde-12345`; spaces ignored, the dash may be left out). */
export const backupCodeSchema = z.object({
  backupCode: text.pipe(
    z
      .string()
      .transform((value) => value.replace(/\s+/g, "").replace(/^([A-Za-z0-9]{5})([A-Za-z0-9]{5})$/, "$1-$2"))
      .pipe(z.string().regex(/^[A-Za-z0-9]{5}-[A-Za-z0-9]{5}$/, "請輸入一組備用碼（例如 abcde-12345）")),
  ),
  trustDevice,
});

/** Confirming the enrolment (or turning it off without a password): the app's current code. */
export const totpConfirmSchema = z.object({ code: totpCode });

/** Asking for a sign-in link. */
export const emailLinkSchema = z.object({ email });

/** A passkey's name as its owner types it. */
export const passkeyNameSchema = z.object({ id: text, name: text.pipe(z.string().trim().min(1, "請輸入名稱").max(50, "名稱不可超過 50 個字元")) });
