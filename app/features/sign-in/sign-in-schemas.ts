import { z } from "~/lib/zod";
import { passwordProblem, type PasswordPolicy } from "~/features/auth/password-policy";

/**
 * One zod schema per sign-in form, run in the browser before submitting (when JavaScript is on) and again by the
 * route action on the server (always). Messages are the Traditional-Chinese ones shown beside each field.
 * The field rules (email, new password, confirmation) are shared with the account screens' forms.
 */
export const email = z
  .string()
  .trim()
  .min(1, "請輸入電子郵件地址")
  .max(254, "電子郵件格式不正確")
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "電子郵件格式不正確");
export const text = z.string().default("");

export function newPassword(policy: PasswordPolicy) {
  return z.string().superRefine((value, ctx) => {
    const problem = passwordProblem(value, policy);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });
}

export const sameConfirmation = (value: { password: string; confirm: string }, ctx: z.RefinementCtx) => {
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

/** The six digits of an authenticator app (spaces allowed, as the apps show them in groups). */
export const totpCode = text.pipe(z.string().transform((value) => value.replace(/\s+/g, "")).pipe(z.string().regex(/^\d{6}$/, "請輸入驗證器 App 顯示的 6 位數字")));

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

/** Asking for a sign-in link. */
export const emailLinkSchema = z.object({ email });
