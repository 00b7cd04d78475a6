import type { AuthErrorCode } from "~/features/auth/auth-error-messages";
import { z } from "~/lib/zod";
import { wayIn, type WayInRules } from "~/features/auth/way-in";
import { emailAddress } from "~/features/auth/ways-in/email-link/email-link";

/**
 * The email-code screen's forms, run in the browser and again by the action (ways-in/email-code/email-code.server.ts):
 * the address, then the 6-digit code mailed to it.
 */
const typed = z.string().default("");
export const emailCodeRequestSchema = z.object({ email: emailAddress });
export const emailCodeSchema = z.object({
  email: emailAddress,
  code: typed.pipe(z.string().trim().regex(/^\d{6}$/, "請輸入信中的 6 位數驗證碼")),
});

const post = ["POST"] as const;

// Better Auth's emailOTP plugin's endpoints, under /api/auth: each named like its row.
export const emailOtpSendVerificationOtp = "/email-otp/send-verification-otp";
export const signInEmailOtp = "/sign-in/email-otp";
export const emailOtpCheckVerificationOtp = "/email-otp/check-verification-otp";
export const emailOtpVerifyEmail = "/email-otp/verify-email";
export const emailOtpRequestPasswordReset = "/email-otp/request-password-reset";
export const forgetPasswordEmailOtp = "/forget-password/email-otp";
export const emailOtpResetPassword = "/email-otp/reset-password";
export const emailOtpRequestEmailChange = "/email-otp/request-email-change";
export const emailOtpChangeEmail = "/email-otp/change-email";

const emailCodeErrors = {
  INVALID_OTP: "auth/invalid-verification-code",
  OTP_EXPIRED: "auth/email-code-expired",
  TOO_MANY_ATTEMPTS: "auth/email-code-expired",
} as const satisfies Record<string, AuthErrorCode>;

/**
 * The plugin's other endpoints (verifying an address, a password reset or an address change by code): this site
 * does those by link, so they are switched off (email-code.server.ts) and keep their rows here.
 */
const switchedOff: WayInRules = { session: "none", origin: "site", lockout: false, metric: false, needs: "nothing", oneFactor: false, perIp: "RATE_LIMIT_SIGN_IN_PER_IP", perIdentifier: false, recentSignIn: false, audit: false, notice: false, botCheck: false, proves: false };

/**
 * Sign-in by a code mailed to the address of an existing account (Better Auth's emailOTP plugin,
 * ways-in/email-code/email-code.server.ts): 6 digits, 10 minutes, 5 tries, single use, stored hashed. It never
 * makes an account, and it answers an unknown address as it answers a known one. The code proves the address (like
 * the emailed link), and it is one factor: two-step sign-in applies.
 */
export const emailCodeWayIn = wayIn({
  id: "email-code",
  identifies: "email",
  screens: ["/login/email-code"],
  accountCenter: { label: "電子郵件驗證碼", listed: false, adds: [], removes: [] },
  rows: {
    // Sends a mail to whoever asks: the bot check, the mail limit per address and a count per typed address.
    emailOtpSendVerificationOtp: { path: emailOtpSendVerificationOtp, methods: post, session: "none", origin: "site", lockout: false, metric: false, needs: "nothing", oneFactor: false, perIp: "RATE_LIMIT_MAIL_PER_IP", perIdentifier: { limit: "RATE_LIMIT_PASSWORD_RESET_PER_ACCOUNT", by: "email" }, recentSignIn: false, errors: emailCodeErrors, audit: "email-code-request", botCheck: true, proves: false, notice: false },
    signInEmailOtp: {
      path: signInEmailOtp,
      methods: post,
      session: "creates",
      origin: "site",
      needs: "nothing",
      // A mailed code is one factor, like a password or the emailed link.
      oneFactor: true,
      perIp: "RATE_LIMIT_SIGN_IN_PER_IP",
      perIdentifier: false,
      // A wrong code counts toward the typed address's lockout, as a wrong password does.
      lockout: "email",
      metric: "sign-in",
      recentSignIn: false,
      errors: emailCodeErrors,
      audit: "sign-in",
      notice: false,
      botCheck: false,
      // Control of a mailbox has no registered `amr` value (as the emailed link): the session's is empty.
      proves: false,
    },
    emailOtpCheckVerificationOtp: { path: emailOtpCheckVerificationOtp, methods: post, ...switchedOff },
    emailOtpVerifyEmail: { path: emailOtpVerifyEmail, methods: post, ...switchedOff },
    emailOtpRequestPasswordReset: { path: emailOtpRequestPasswordReset, methods: post, ...switchedOff },
    forgetPasswordEmailOtp: { path: forgetPasswordEmailOtp, methods: post, ...switchedOff },
    emailOtpResetPassword: { path: emailOtpResetPassword, methods: post, ...switchedOff },
    emailOtpRequestEmailChange: { path: emailOtpRequestEmailChange, methods: post, ...switchedOff, needs: "authoritative-session" },
    emailOtpChangeEmail: { path: emailOtpChangeEmail, methods: post, ...switchedOff, needs: "authoritative-session" },
  },
});
