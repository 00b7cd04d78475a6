import { z } from "~/lib/zod";
import { normalizePassword, type PasswordPolicy } from "~/features/auth";
import { newPassword, sameConfirmation, text } from "~/features/sign-in/sign-in-schemas";

/** One zod schema per account form, run in the browser before submitting and again by the route action. */
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
