import { createHash, timingSafeEqual } from "node:crypto";
import { data } from "react-router";
import { createAuthMiddleware } from "better-auth/api";
import type { BetterAuthPlugin, GenericEndpointContext } from "better-auth";
import { emailOTP } from "better-auth/plugins";
import type { ServerEnv } from "~/config/env.server";
import type { DatabaseHandle } from "~/db/connection.server";
import { authPaths } from "~/features/auth/auth-endpoints";
import { endUnprovenAccess } from "~/features/auth/unproven-access.server";
import type { SignInKit, WayInPlugins, WayInServer } from "~/features/auth/way-in-plugins.server";
import { enqueueMail } from "~/features/mail/outbox.server";
import { emailCodeSignInEmail } from "~/features/mail/mail-templates.server";
import type { FormResult } from "~/lib/form-result";
import { invalidForm, readForm } from "~/services/form.server";
import { emailCodeRequestSchema, emailCodeSchema, emailCodeWayIn } from "./email-code";

/** A mailed code: 6 digits, 10 minutes (mail may take a while), 5 tries, then it is gone; single use. */
export const emailCode = { length: 6, lifetimeSeconds: 600, tries: 5 } as const;

/** Where the plugin keeps a sign-in code (its `toOTPIdentifier`), and how it hashes one (`storeOTP: "hashed"`). */
const codeIdentifier = (email: string) => `sign-in-otp-${email}`;
const hashed = (code: string) => createHash("sha256").update(code).digest("base64url");

const bodyOf = (ctx: { body?: unknown }) => (ctx.body ?? {}) as { email?: unknown; otp?: unknown };
const typedEmail = (ctx: { body?: unknown }) => {
  const email = bodyOf(ctx).email;
  return typeof email === "string" ? email.trim().toLowerCase() : "";
};

/**
 * Whether `code` is the live sign-in code of `email`, read without spending a try (the plugin's own check, which
 * follows, spends it): only to know, before the plugin signs in, that this request proves the address.
 */
async function provesAddress(ctx: GenericEndpointContext, email: string, code: string): Promise<boolean> {
  const stored = await ctx.context.internalAdapter.findVerificationValue(codeIdentifier(email));
  if (!stored || stored.expiresAt < new Date()) return false;
  const at = stored.value.lastIndexOf(":");
  if (Number(stored.value.slice(at + 1)) >= emailCode.tries) return false;
  const [expected, given] = [Buffer.from(stored.value.slice(0, at)), Buffer.from(hashed(code))];
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Sign-in by a mailed code (ways-in/email-code/email-code.ts): Better Auth's emailOTP plugin, held to sign-in only.
 * - `disableSignUp`: a code goes only to an existing account (a guest's placeholder address gets none), and an
 *   unknown address gets the same answer without a mail; a code for it signs nobody in.
 * - The send endpoint makes sign-in codes only (whatever `type` the body names), which go out through the outbox.
 * - Codes are stored hashed (SHA-256): a database copy signs nobody in.
 * - The code proves the address: on an account that was unverified, every credential and session set before it
 *   ends first (unproven-access.server.ts), as for the emailed link, then the plugin marks it verified.
 * Its endpoints for verifying an address, resetting a password or changing the address by code are switched off:
 * the site does those by link.
 */
function emailCodeSignIn(database: DatabaseHandle, env: ServerEnv): WayInPlugins {
  const { db } = database;
  const brand = { productName: env.PRODUCT_NAME, supportEmail: env.SUPPORT_EMAIL };
  const screen = new URL(emailCodeWayIn.screens[0] ?? "/login", env.SITE_URL).toString();
  const plugin = emailOTP({
    otpLength: emailCode.length,
    expiresIn: emailCode.lifetimeSeconds,
    allowedAttempts: emailCode.tries,
    storeOTP: "hashed",
    disableSignUp: true,
    sendVerificationOTP: async ({ email, otp, type }, ctx) => {
      if (type !== "sign-in") return;
      const found = await ctx?.context.internalAdapter.findUserByEmail(email);
      if (!found || (found.user as { isAnonymous?: boolean | null }).isAnonymous) return;
      await enqueueMail(db, emailCodeSignInEmail(brand, found.user.email, otp, screen, emailCode.lifetimeSeconds / 60));
    },
  });

  const rules: BetterAuthPlugin = {
    id: "email-code-rules",
    hooks: {
      before: [
        {
          // Only sign-in codes are ever made here.
          matcher: (ctx) => ctx.path === authPaths.emailOtpSendVerificationOtp,
          handler: createAuthMiddleware(async (ctx) => ({ context: { body: { ...(ctx.body as object), email: typedEmail(ctx), type: "sign-in" } } })),
        },
        {
          // A right code on an unverified account: nothing set before the proof stays (two-step sign-in included).
          matcher: (ctx) => ctx.path === authPaths.signInEmailOtp,
          handler: createAuthMiddleware(async (ctx) => {
            const email = typedEmail(ctx);
            const code = bodyOf(ctx).otp;
            const found = email && typeof code === "string" ? await ctx.context.internalAdapter.findUserByEmail(email) : null;
            if (!found || found.user.emailVerified || !(await provesAddress(ctx, email, String(code)))) return;
            await endUnprovenAccess(ctx.context, db, env, found.user);
            await ctx.context.internalAdapter.updateUser(found.user.id, { twoFactorEnabled: false });
          }),
        },
      ],
    },
  };
  return {
    plugins: [rules, plugin],
    switchedOff: [
      authPaths.emailOtpCheckVerificationOtp,
      authPaths.emailOtpVerifyEmail,
      authPaths.emailOtpRequestPasswordReset,
      authPaths.forgetPasswordEmailOtp,
      authPaths.emailOtpResetPassword,
      authPaths.emailOtpRequestEmailChange,
      authPaths.emailOtpChangeEmail,
    ],
  };
}

/**
 * `/login/email-code`: `send` mails a code to the typed address (the same answer whether or not it has an account);
 * `verify` signs in with it. Two-step sign-in asks for its code next.
 */
async function emailCodeScreenAction(request: Request, { call, fail, signedIn }: SignInKit) {
  const fields = await readForm(request);
  const values = { email: fields.email ?? "" };
  if (fields.intent !== "verify") {
    const parsed = emailCodeRequestSchema.safeParse(fields);
    if (!parsed.success) return invalidForm(parsed.error, values, "send");
    const answer = await call(request, authPaths.emailOtpSendVerificationOtp, { email: parsed.data.email, type: "sign-in" }, undefined, fields);
    if (!answer.ok) return fail(answer, values, { "auth/invalid-email": "email" }, "send");
    return data<FormResult>({ done: true, values: { email: parsed.data.email }, intent: "send" });
  }
  const parsed = emailCodeSchema.safeParse(fields);
  if (!parsed.success) return invalidForm(parsed.error, values, "verify");
  const answer = await call(request, authPaths.signInEmailOtp, { email: parsed.data.email, otp: parsed.data.code });
  if (!answer.ok) return fail(answer, values, { "auth/invalid-verification-code": "code", "auth/email-code-expired": "code" }, "verify");
  return signedIn(request, fields, answer);
}

export const wayInServer: WayInServer = {
  unit: emailCodeWayIn,
  plugins: ({ database, env }) => emailCodeSignIn(database, env),
  screenAction: emailCodeScreenAction,
};
