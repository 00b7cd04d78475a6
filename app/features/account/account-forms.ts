import { z } from "~/lib/zod";
import { passwordProblem, type PasswordPolicy, type SignInMethods } from "~/features/auth";

/**
 * The account center's forms (/account), each told apart by its `intent`; one zod schema per form, run in the
 * browser first when JavaScript is on and always again by the route action.
 */
export type AccountIntent = "update-name" | "change-email" | "set-password" | "remove-method" | "link-method" | PhoneIntent;
/** The phone number's forms: text a code to a new number, attach it with that code, remove the number. */
export type PhoneIntent = "send-phone-code" | "add-phone" | "remove-phone";

const text = z.string().default("");

/** The sign-up form's rules for a display name. */
export const displayNameSchema = z.object({
  displayName: text.pipe(z.string().trim().min(1, "請輸入顯示名稱").max(100, "顯示名稱不可超過 100 個字元")),
});

export const changeEmailSchema = z.object({
  newEmail: text.pipe(
    z.string().trim().toLowerCase().min(1, "請輸入新的電子郵件地址").max(254, "電子郵件格式不正確").regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, "電子郵件格式不正確"),
  ),
});

export const setPasswordSchema = (policy: PasswordPolicy) =>
  z
    .object({
      password: text.pipe(
        z.string().superRefine((value, ctx) => {
          const problem = passwordProblem(value, policy);
          if (problem) ctx.addIssue({ code: "custom", message: problem });
        }),
      ),
      confirm: text,
    })
    .superRefine((value, ctx) => {
      if (value.confirm !== value.password) ctx.addIssue({ code: "custom", path: ["confirm"], message: "兩次輸入的密碼不一致" });
    });

export const methodSchema = z.object({ id: text.pipe(z.string().min(1).max(200)) });
export const linkSchema = z.object({ provider: z.enum(["apple", "google", "facebook", "line", "dev"]) });

/** What the account center shows: a visitor or a guest is asked to sign in or sign up. */
export type AccountCenter =
  | { account: null; guest: boolean }
  | {
      account: {
        /** The address the parent gave; null for an account made by phone (no address yet). */
        email: string | null;
        emailVerified: boolean;
        displayName: string;
        /** Who the account's passkeys belong to, as registration named them (for the browser's Signal API). */
        passkeyAccount: { userId: string; name: string };
        photoURL: string | null;
        signInMethods: SignInMethods;
        /** The account's proved phone number as people read it (0912-345-678), or null. */
        phoneNumber: string | null;
      };
      guest: false;
      policy: PasswordPolicy;
      /** A message carried back in the address (after a photo upload or a provider's page). */
      notice: string | null;
      alert: string | null;
    };
