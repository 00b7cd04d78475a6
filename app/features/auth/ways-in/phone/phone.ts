import type { AuthErrorCode } from "~/features/auth/auth-error-messages";
import { z } from "~/lib/zod";
import { wayIn, type WayInRules } from "~/features/auth/way-in";

/**
 * The phone screen's forms (and the account center's), run in the browser and again by the action
 * (ways-in/phone/phone.server.ts): the number as typed (the server makes it E.164), then the texted 6-digit code.
 */
const typed = z.string().default("");
const phoneNumber = typed.pipe(z.string().trim().min(1, "請輸入手機號碼").max(40, "請輸入正確的手機號碼，例如 0912-345-678"));
export const phoneSchema = z.object({ phoneNumber });
export const phoneCodeSchema = z.object({
  phoneNumber,
  code: typed.pipe(z.string().trim().regex(/^\d{6}$/, "請輸入簡訊裡的 6 位數驗證碼")),
  displayName: typed.pipe(z.string().trim().max(100, "顯示名稱不可超過 100 個字元")),
});

const post = ["POST"] as const;

// The unit's endpoints, under /api/auth (auth-paths.ts spells the shared ones): each named like its row.
export const phoneNumberSendOtp = "/phone-number/send-otp";
export const phoneNumberVerify = "/phone-number/verify";
export const phoneNumberRemove = "/phone-number/remove";
export const signInPhoneNumber = "/sign-in/phone-number";
export const phoneNumberRequestPasswordReset = "/phone-number/request-password-reset";
export const phoneNumberResetPassword = "/phone-number/reset-password";

const phoneErrors = {
  INVALID_PHONE_NUMBER: "auth/invalid-phone-number",
  PHONE_NUMBER_EXIST: "auth/phone-number-already-in-use",
  OTP_NOT_FOUND: "auth/code-expired",
  OTP_EXPIRED: "auth/code-expired",
  INVALID_OTP: "auth/invalid-verification-code",
  TOO_MANY_ATTEMPTS: "auth/code-expired",
  SMS_QUOTA_EXCEEDED: "auth/sms-quota-exceeded",
  PHONE_NUMBER_NOT_EXIST: "auth/not-found",
  FAILED_TO_UNLINK_LAST_ACCOUNT: "auth/last-sign-in-method",
} as const satisfies Record<string, AuthErrorCode>;

/** A body that adds the typed number to the signed-in account rather than signing in with it. */
const attachesToAccount = (body: Readonly<Record<string, unknown>>) => body.updatePhoneNumber === true;

/** Attaching a number: a sensitive change of the signed-in account (no new session, a notice to every channel). */
const attaching: WayInRules = {
  session: "none",
  origin: "site",
  lockout: "phone",
  metric: false,
  needs: "nothing",
  oneFactor: false,
  perIp: "RATE_LIMIT_SIGN_IN_PER_IP",
  perIdentifier: false,
  recentSignIn: true,
  audit: "phone-number-added",
  notice: { byEndpoint: "sign-in-method-added" },
  // The code was texted behind the send's bot check; checking it sends nothing.
  botCheck: false, proves: false,
};

/** Better Auth's phone password endpoints: this site keeps no password per number (switched off, auth.server.ts). */
const switchedOff: WayInRules = { session: "none", origin: "site", lockout: false, metric: false, needs: "nothing", oneFactor: true, perIp: "RATE_LIMIT_SIGN_IN_PER_IP", perIdentifier: false, recentSignIn: false, audit: false, notice: false, botCheck: false, proves: false };

/**
 * A Taiwanese mobile number (Better Auth's phoneNumber plugin, ways-in/phone/phone.server.ts): a 6-digit code texted
 * through the outbox, valid 5 minutes, 5 tries, single use. The same verify endpoint signs up (with a display
 * name), signs in, upgrades a guest, and, with `updatePhoneNumber`, attaches the number to the signed-in account:
 * its row depends on the request. A texted code is one factor: two-step sign-in applies.
 */
export const phoneWayIn = wayIn({
  id: "phone",
  identifies: "phone",
  screens: ["/login/phone", "/account/security"],
  accountCenter: { label: "手機號碼", listed: true, adds: ["phoneNumberVerify"], removes: ["phoneNumberRemove"] },
  rows: {
    phoneNumberSendOtp: { path: phoneNumberSendOtp, methods: post, session: "none", origin: "site", lockout: false, metric: false, needs: "nothing", oneFactor: false, perIp: "RATE_LIMIT_SMS_PER_IP", perIdentifier: { limit: "RATE_LIMIT_SMS_PER_NUMBER", by: "phone" }, recentSignIn: false, errors: phoneErrors, audit: "sms-code-request", botCheck: true, proves: false, notice: false },
    phoneNumberVerify: {
      path: phoneNumberVerify,
      methods: post,
      session: "creates",
      origin: "site",
      // A wrong texted code counts toward the lockout of the typed number, as a wrong password does of an email.
      lockout: "phone",
      metric: "sign-in",
      needs: "nothing",
      oneFactor: true,
      perIp: "RATE_LIMIT_SIGN_IN_PER_IP",
      perIdentifier: false,
      recentSignIn: false,
      displayName: true,
      errors: phoneErrors,
      audit: "phone-sign-in",
      notice: false,
      botCheck: false,
      proves: ["sms"],
      byRequest: { when: attachesToAccount, rules: attaching },
    },
    phoneNumberRemove: { path: phoneNumberRemove, methods: post, session: "none", origin: "site", lockout: false, metric: false, needs: "session", oneFactor: false, perIp: "RATE_LIMIT_SIGN_IN_PER_IP", perIdentifier: false, recentSignIn: true, errors: phoneErrors, audit: "phone-number-removed", botCheck: false, proves: false, notice: { byEndpoint: "sign-in-method-removed" } },
    signInPhoneNumber: { path: signInPhoneNumber, methods: post, ...switchedOff, session: "creates" },
    phoneNumberRequestPasswordReset: { path: phoneNumberRequestPasswordReset, methods: post, ...switchedOff, oneFactor: false },
    phoneNumberResetPassword: { path: phoneNumberResetPassword, methods: post, ...switchedOff, oneFactor: false },
  },
});
