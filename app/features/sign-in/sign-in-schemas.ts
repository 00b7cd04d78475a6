import { z } from "~/lib/zod";
import { passwordProblem, type PasswordPolicy } from "~/features/auth";
import { emailAddress as email } from "~/features/auth/ways-in";

/**
 * One zod schema per sign-in form, run in the browser before submitting (when JavaScript is on) and again by the
 * route action on the server (always). Messages are the Traditional-Chinese ones shown beside each field.
 * The field rules (email, new password, confirmation) are shared with the account screens' forms.
 */
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
