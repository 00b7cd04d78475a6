import { data } from "react-router";
import { APIError, createAuthEndpoint, createAuthMiddleware, sessionMiddleware } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";
import { phoneNumber } from "better-auth/plugins/phone-number";
import { z } from "zod";
import type { ServerEnv } from "~/config/env.server";
import type { DatabaseHandle } from "~/db/connection.server";
import { enqueueSms } from "~/features/mail/outbox.server";
import { twilioCheck, twilioSettings } from "~/features/mail/sms-gateways.server";
import type { FormResult } from "~/lib/form-result";
import { invalidForm, readForm } from "~/services/form.server";
import { getLogger } from "~/services/logger.server";
import type { RateLimitStore } from "~/services/rate-limiter.server";
import { authPaths, endpointsWhere } from "~/features/auth/auth-endpoints";
import { phoneCodeSchema, phoneSchema, phoneWayIn } from "./phone";
import { displayPhoneNumber, phoneAccountEmail, toE164 } from "~/features/auth/phone-number";
import { sendSecurityNotice } from "~/features/auth/security-notices.server";
import { removeWayIn } from "~/features/auth/last-way-in.server";
import type { SignInKit, WayInPlugins, WayInServer } from "~/features/auth/way-in-plugins.server";

// The unit's columns (migration 0190), merged into the sign-in layer's user row (app/db/schema.ts).
declare module "~/db/schema" {
  interface AuthUserTable {
    /** E.164 (`+886912345678`), unique; null without a number. */
    phoneNumber: string | null;
    phoneNumberVerified: boolean | number | null;
  }
}

/** A texted code: 6 digits, 5 minutes, 5 tries, then it is gone (the plugin deletes it when used or spent). */
export const smsCode = { length: 6, lifetimeSeconds: 300, tries: 5 } as const;
/** The name of an account made by phone before its owner gives one. */
const phoneAccountName = "家長";
/** The first wait between two texts to one number; each further text that day doubles it. */
const firstWaitSeconds = 30;
/** The share of SMS_DAILY_LIMIT after which every text logs a warning for the operator. */
const nearDailyLimit = 0.8;

const phonePaths = new Set<string>(Object.values(phoneWayIn.rows).map((row) => row.path));
/** The phone unit's endpoints: the ones whose `phoneNumber` is made E.164 before anything reads it. */
const takesNumber = endpointsWhere((row) => phonePaths.has(row.path));
const typedNumber = (body: unknown) => (body as { phoneNumber?: unknown } | undefined)?.phoneNumber;

/** A refused text, logged for the operator (the reason, never the number or a code). */
const refusal = (code: "TOO_MANY_REQUESTS" | "SMS_QUOTA_EXCEEDED", retryAfterSeconds: number, reason: "wait" | "number-daily" | "site-daily") => {
  getLogger().warn({ authEvent: "sms-code-request", outcome: "refused", reason, retryAfterSeconds }, "text message refused");
  return new APIError(
    "TOO_MANY_REQUESTS",
    { code, message: "Too many text messages" },
    { "Retry-After": String(retryAfterSeconds), "X-Retry-After": String(retryAfterSeconds) },
  );
};

/**
 * The SMS pumping defence before a code is texted (per address and per number an hour are the row's limits):
 * a number gets at most RATE_LIMIT_SMS_PER_NUMBER_DAILY texts a day, each further one after a wait that doubles
 * (30 s, 60 s, 120 s, …), and the whole site at most SMS_DAILY_LIMIT a day, with a log line once it is near.
 */
async function guardSmsSend(env: ServerEnv, store: RateLimitStore, number: string): Promise<void> {
  const wait = await store.peek(`sms-wait:${number}`);
  if (wait.count > 0) throw refusal("TOO_MANY_REQUESTS", Math.max(1, wait.resetInSeconds), "wait");
  const day = await store.hit(`sms-day:${number}`, env.RATE_LIMIT_SMS_PER_NUMBER_DAILY.windowSeconds);
  if (day.count > env.RATE_LIMIT_SMS_PER_NUMBER_DAILY.max) throw refusal("TOO_MANY_REQUESTS", Math.max(1, day.resetInSeconds), "number-daily");
  const site = await store.hit("sms-site-day", 86_400);
  if (site.count > env.SMS_DAILY_LIMIT) {
    getLogger().error({ smsToday: site.count, smsDailyLimit: env.SMS_DAILY_LIMIT }, "SMS daily limit reached: texts refused");
    throw refusal("SMS_QUOTA_EXCEEDED", Math.max(1, site.resetInSeconds), "site-daily");
  }
  if (site.count >= env.SMS_DAILY_LIMIT * nearDailyLimit) {
    getLogger().warn({ smsToday: site.count, smsDailyLimit: env.SMS_DAILY_LIMIT }, "SMS daily limit near");
  }
  await store.hit(`sms-wait:${number}`, firstWaitSeconds * 2 ** Math.max(0, day.count - 1));
}

/**
 * Phone sign-in (ways-in/phone/phone.ts): Better Auth's phoneNumber plugin and what the site adds around it.
 * - Every typed number is made E.164 first (phone-number.ts) or refused, so limits and the unique column see one
 *   form of each number.
 * - Codes go out through the outbox's SMS channel; the text never reaches a log line.
 * - A sign-up by phone takes the form's display name; its account has a placeholder address that is never mailed.
 * - Attaching (`updatePhoneNumber`) tells the account; `POST /phone-number/remove` drops the number unless it is
 *   the last way in (last-way-in.server.ts), and tells the account and the number removed.
 * Better Auth's password-per-number endpoints are switched off: this site keeps no password per number.
 */
function phoneSignIn(database: DatabaseHandle, env: ServerEnv, store: RateLimitStore): WayInPlugins {
  const { db } = database;
  const twilio = twilioSettings(env);
  const plugin = phoneNumber({
    otpLength: smsCode.length,
    expiresIn: smsCode.lifetimeSeconds,
    allowedAttempts: smsCode.tries,
    phoneNumberValidator: (typed) => toE164(typed, env.SMS_ALLOWED_COUNTRIES) === typed,
    // With Twilio Verify, Twilio makes, texts and checks the code: the outbox row carries no code of ours.
    sendOTP: async ({ phoneNumber: to, code }) => {
      const text = twilio ? "" : `【${env.PRODUCT_NAME}】你的驗證碼是 ${code}，${smsCode.lifetimeSeconds / 60} 分鐘內有效。請勿把驗證碼告訴任何人。`;
      await enqueueSms(db, { to, text, purpose: "code" });
    },
    ...(twilio ? { verifyOTP: ({ phoneNumber: to, code }: { phoneNumber: string; code: string }) => twilioCheck(twilio, to, code) } : {}),
    signUpOnVerification: { getTempEmail: phoneAccountEmail, getTempName: () => phoneAccountName },
    callbackOnVerification: async ({ phoneNumber: number, user }, ctx) => {
      const body = (ctx?.body ?? {}) as { updatePhoneNumber?: unknown; name?: unknown };
      if (body.updatePhoneNumber === true) {
        await sendSecurityNotice(db, env, { kind: "sign-in-method-added", to: user.email, detail: `手機號碼 ${displayPhoneNumber(number)}` });
        return;
      }
      const justMade = user.name === phoneAccountName && Date.now() - new Date(user.createdAt).getTime() < 60_000;
      if (justMade && typeof body.name === "string" && body.name.trim()) {
        await ctx?.context.internalAdapter.updateUser(user.id, { name: body.name.trim() });
      }
    },
  });

  const rules: BetterAuthPlugin = {
    id: "phone-sign-in-rules",
    hooks: {
      before: [
        {
          matcher: (ctx) => typeof typedNumber(ctx.body) === "string" && takesNumber(ctx),
          handler: createAuthMiddleware(async (ctx) => {
            const number = toE164(String(typedNumber(ctx.body)), env.SMS_ALLOWED_COUNTRIES);
            if (!number) throw new APIError("BAD_REQUEST", { code: "INVALID_PHONE_NUMBER", message: "Invalid phone number" });
            if (ctx.path === authPaths.phoneNumberSendOtp) await guardSmsSend(env, store, number);
            return { context: { body: { ...(ctx.body as object), phoneNumber: number } } };
          }),
        },
      ],
    },
    endpoints: {
      removePhoneNumber: createAuthEndpoint(authPaths.phoneNumberRemove, { method: "POST", use: [sessionMiddleware], body: z.object({}).optional() }, async (ctx) => {
        const { user } = ctx.context.session;
        await removeWayIn(database, user.id, async (trx) => {
          const row = await trx.selectFrom("user").select(["phoneNumber"]).where("id", "=", user.id).executeTakeFirst();
          if (!row?.phoneNumber) throw new APIError("BAD_REQUEST", { code: "PHONE_NUMBER_NOT_EXIST", message: "No phone number" });
          await trx.updateTable("user").set({ phoneNumber: null, phoneNumberVerified: null }).where("id", "=", user.id).execute();
          await sendSecurityNotice(trx, env, { kind: "sign-in-method-removed", to: user.email, phone: row.phoneNumber, detail: `手機號碼 ${displayPhoneNumber(row.phoneNumber)}` });
        });
        return ctx.json({ status: true });
      }),
    },
  };
  return {
    plugins: [rules, plugin],
    switchedOff: [authPaths.signInPhoneNumber, authPaths.phoneNumberRequestPasswordReset, authPaths.phoneNumberResetPassword],
  };
}

/**
 * `/login/phone`: `send` texts a code to the typed number; `verify` signs in with it, or signs up (with the display
 * name), or turns a signed-in guest into the phone account. Two-step sign-in asks for its code next.
 */
async function phoneScreenAction(request: Request, { call, fail, signedIn }: SignInKit) {
  const fields = await readForm(request);
  const values = { phoneNumber: fields.phoneNumber ?? "", displayName: fields.displayName ?? "" };
  if (fields.intent !== "verify") {
    const parsed = phoneSchema.safeParse(fields);
    if (!parsed.success) return invalidForm(parsed.error, values, "send");
    const answer = await call(request, authPaths.phoneNumberSendOtp, { phoneNumber: parsed.data.phoneNumber }, undefined, fields);
    if (!answer.ok) return fail(answer, values, { "auth/invalid-phone-number": "phoneNumber" }, "send");
    return data<FormResult>({ done: true, values, intent: "send" });
  }
  const parsed = phoneCodeSchema.safeParse(fields);
  if (!parsed.success) return invalidForm(parsed.error, values, "verify");
  const { phoneNumber, code, displayName } = parsed.data;
  const answer = await call(request, authPaths.phoneNumberVerify, { phoneNumber, code, ...(displayName ? { name: displayName } : {}) });
  if (!answer.ok) return fail(answer, values, { "auth/invalid-verification-code": "code", "auth/code-expired": "code" }, "verify");
  return signedIn(request, fields, answer);
}

export const wayInServer: WayInServer = {
  unit: phoneWayIn,
  plugins: ({ database, env, rateLimitStore }) => phoneSignIn(database, env, rateLimitStore),
  screenAction: phoneScreenAction,
};
