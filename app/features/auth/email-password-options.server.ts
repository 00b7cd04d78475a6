import type { BetterAuthOptions } from "better-auth";
import type { ServerEnv } from "~/config/env.server";
import { enqueueMail } from "~/features/mail/outbox.server";
import { emailChangeEmail, passwordResetEmail, verificationEmail } from "~/features/mail/mail-templates.server";
import { withFirebaseHashes } from "~/features/firebase-import/password-verify.server";
import { hashPassword, inHashSlot, verifyPassword } from "./password-hash.server";
import type { PasswordPolicy } from "./password-policy";
import { isEmailChangeToken } from "./account-notices.server";
import { sendSecurityNotice } from "./security-notices.server";
import { resetPasswordPage, verifyEmailPage } from "./auth-client";
import type { AuthDependencies } from "./auth.server";

/** How long a mailed verification link works, in seconds: Better Auth's expiry and the single-use check's. */
export const verificationLinkLifetime = 24 * 3600;

/** Whom the sign-in layer's mails name as their sender. */
export const mailBrand = (env: ServerEnv) => ({ productName: env.PRODUCT_NAME, supportEmail: env.SUPPORT_EMAIL });

/** Accounts with an address and a password: the policy's lengths, the hashes, and the reset link with its notice. */
export function emailAndPasswordOptions({ env, database }: AuthDependencies, policy: PasswordPolicy) {
  return {
    enabled: true,
    minPasswordLength: policy.minLength,
    maxPasswordLength: policy.maxLength,
    // Accounts imported from Firebase keep their old hash until it verifies once (app/features/firebase-import).
    password: { hash: hashPassword, verify: withFirebaseHashes(database.db, { verify: verifyPassword, hash: hashPassword, inHashSlot }) },
    revokeSessionsOnPasswordReset: true,
    resetPasswordTokenExpiresIn: 3600,
    sendResetPassword: async ({ user, token }) => {
      const link = `${env.SITE_URL}${resetPasswordPage}?token=${encodeURIComponent(token)}`;
      await enqueueMail(database.db, passwordResetEmail(mailBrand(env), user.email, link));
    },
    onPasswordReset: async ({ user }) => sendSecurityNotice(database.db, env, { kind: "password-changed", to: user.email }),
  } satisfies BetterAuthOptions["emailAndPassword"];
}

/** Proving an address: the link mailed at sign-up, or to the new address of an email change. */
export function emailVerificationOptions({ env, database }: AuthDependencies) {
  return {
    sendOnSignUp: true,
    expiresIn: verificationLinkLifetime,
    sendVerificationEmail: async ({ user, token }) => {
      const link = `${env.SITE_URL}${verifyEmailPage}?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.email)}`;
      // The same link confirms a new address (the email change); the mail says which it is.
      const template = isEmailChangeToken(token) ? emailChangeEmail : verificationEmail;
      await enqueueMail(database.db, template(mailBrand(env), user.email, link));
    },
  } satisfies BetterAuthOptions["emailVerification"];
}
