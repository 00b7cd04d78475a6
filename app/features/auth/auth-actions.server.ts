import { data, redirect } from "react-router";
import type { z } from "zod";
import { clientIpHeader } from "~/services/client-ip.server";
import { getAuthService } from "./auth-service.server";
import { toCatalogueError } from "./api-errors.server";
import { messageForCode } from "./auth-errors";
import { authHref } from "./auth-paths";
import { safeRedirect } from "./redirect-rule";
import type { IdentityRecord } from "./identity-record";
import {
  fieldErrorsOf,
  forgotPasswordSchema,
  formFields,
  loginSchema,
  resendVerificationSchema,
  resetPasswordSchema,
  signupSchema,
  type FormOutcome,
} from "./form-schemas";

interface AuthAnswer {
  ok: boolean;
  status: number;
  body: { code?: string; message?: string; user?: IdentityRecord | null } | null;
  cookies: string[];
}

/**
 * Calls Better Auth in-process with the browser's own cookie, Origin and address, so every rule of the sign-in
 * layer (origin check, rate limits, the redirect rule, the product's plugins) applies as for the JSON API.
 */
async function callAuth(request: Request, path: string, body?: unknown): Promise<AuthAnswer> {
  const service = getAuthService();
  const headers = new Headers();
  for (const name of ["cookie", "origin", "referer", "user-agent", clientIpHeader]) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  if (body !== undefined) headers.set("content-type", "application/json");
  const answer = await toCatalogueError(
    await service.auth.handler(
      new Request(`${service.env.SITE_URL}/api/auth${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    ),
  );
  const parsed = (await answer.json().catch(() => null)) as AuthAnswer["body"];
  return { ok: answer.ok, status: answer.status, body: parsed, cookies: answer.headers.getSetCookie() };
}

const withCookies = (cookies: string[]) => {
  const headers = new Headers();
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return headers;
};

function failed(answer: AuthAnswer, values: Record<string, string>, fields: Partial<Record<string, string>> = {}) {
  const code = answer.body?.code ?? "auth/internal-error";
  const message = answer.body?.message ?? messageForCode(code);
  const field = fields[code];
  return data<FormOutcome>(
    { formError: message, code, values, fieldErrors: field ? { [field]: message } : undefined },
    { status: answer.status, headers: withCookies(answer.cookies) },
  );
}

function invalid(error: z.ZodError, values: Record<string, string>) {
  return data<FormOutcome>({ fieldErrors: fieldErrorsOf(error), values }, { status: 400 });
}

/** Where to go afterwards: the `redirectTo` of the form or of the address, judged by the one redirect rule. */
function destination(request: Request, fields: Record<string, string>) {
  const target = fields.redirectTo ?? new URL(request.url).searchParams.get("redirectTo");
  return safeRedirect(target, getAuthService().env.SITE_URL);
}

async function currentUser(request: Request): Promise<IdentityRecord | null> {
  return (await callAuth(request, "/me")).body?.user ?? null;
}

/**
 * The posted form's text fields. A body that is not a form (JSON, a multipart body without its boundary, broken
 * bytes) is the sender's mistake: it ends the action with 400 and a sentence, never a server error.
 */
async function postedFields(request: Request): Promise<Record<string, string>> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw data<FormOutcome>({ formError: "送出的表單資料格式不正確，請重新整理頁面後再試一次。", code: "form/malformed" }, { status: 400 });
  }
  return formFields(form);
}

export async function loginAction(request: Request) {
  const fields = await postedFields(request);
  const to = destination(request, fields);
  if (fields.intent === "guest" || fields.intent === "logout") {
    const answer = await callAuth(request, fields.intent === "guest" ? "/sign-in/anonymous" : "/sign-out", {});
    if (!answer.ok) return failed(answer, {});
    return redirect(fields.intent === "guest" ? to : authHref("/login", to), { headers: withCookies(answer.cookies) });
  }
  const values = { email: fields.email ?? "" };
  const parsed = loginSchema.safeParse(fields);
  if (!parsed.success) return invalid(parsed.error, values);
  const answer = await callAuth(request, "/sign-in/email", { email: parsed.data.email, password: parsed.data.password });
  if (!answer.ok) return failed(answer, values);
  return redirect(to, { headers: withCookies(answer.cookies) });
}

/** Sign-up, or for a signed-in guest the in-place upgrade of the same account. */
export async function signupAction(request: Request) {
  const fields = await postedFields(request);
  const values = { email: fields.email ?? "", displayName: fields.displayName ?? "" };
  const parsed = signupSchema(getAuthService().passwordPolicy).safeParse(fields);
  if (!parsed.success) return invalid(parsed.error, values);
  const isGuest = Boolean((await currentUser(request))?.isAnonymous);
  const { email, password, displayName } = parsed.data;
  const answer = await callAuth(request, isGuest ? "/guest/upgrade" : "/sign-up/email", { email, password, name: displayName });
  if (!answer.ok) {
    return failed(answer, values, {
      "auth/email-already-in-use": "email",
      "auth/invalid-email": "email",
      "auth/weak-password": "password",
      "auth/display-name-too-long": "displayName",
    });
  }
  return redirect(authHref("/email-verification", destination(request, fields)), { headers: withCookies(answer.cookies) });
}

export async function forgotPasswordAction(request: Request) {
  const fields = await postedFields(request);
  const values = { email: fields.email ?? "" };
  const parsed = forgotPasswordSchema.safeParse(fields);
  if (!parsed.success) return invalid(parsed.error, values);
  const answer = await callAuth(request, "/request-password-reset", { email: parsed.data.email, redirectTo: "/reset-password" });
  if (!answer.ok) return failed(answer, values);
  return data<FormOutcome>({ done: true, values });
}

export async function resetPasswordAction(request: Request) {
  const fields = await postedFields(request);
  // Without JavaScript the token arrives in the address the form posts back to.
  const token = fields.token || new URL(request.url).searchParams.get("token") || "";
  const parsed = resetPasswordSchema(getAuthService().passwordPolicy).safeParse({ ...fields, token });
  if (!parsed.success) return invalid(parsed.error, {});
  const answer = await callAuth(request, "/reset-password", { token, newPassword: parsed.data.password });
  if (!answer.ok) return failed(answer, {}, { "auth/weak-password": "password" });
  return redirect("/login?reset=done", { headers: withCookies(answer.cookies) });
}

/**
 * A new verification link: to the signed-in user's own address, else to the one typed in. The answer is the same
 * whether or not the address has an account or is already verified; only a rate limit shows.
 */
export async function resendVerificationAction(request: Request) {
  const fields = await postedFields(request);
  const user = await currentUser(request);
  const typed = { email: user?.email && !user.isAnonymous ? user.email : (fields.email ?? "") };
  const parsed = resendVerificationSchema.safeParse(typed);
  if (!parsed.success) return invalid(parsed.error, typed);
  const answer = await callAuth(request, "/send-verification-email", { email: parsed.data.email });
  if (answer.status === 429) return failed(answer, typed);
  return data<FormOutcome>({ done: true, values: typed }, { headers: withCookies(answer.cookies) });
}

/** The verification link's page without JavaScript: its button posts the token here. */
export async function verifyEmailAction(request: Request) {
  const token = (await postedFields(request)).token || new URL(request.url).searchParams.get("token") || "";
  const answer = await callAuth(request, `/verify-email?${new URLSearchParams({ token })}`);
  if (!answer.ok) return failed(answer, {});
  return data<FormOutcome>({ done: true }, { headers: withCookies(answer.cookies) });
}

/** Deletes the signed-in account (with its password where it has one); the session cookie goes with it. */
export async function deleteAccountAction(request: Request, schema: z.ZodType<{ confirm: string; password: string }>) {
  const fields = await postedFields(request);
  const parsed = schema.safeParse(fields);
  if (!parsed.success) return invalid(parsed.error, {});
  const { password } = parsed.data;
  const answer = await callAuth(request, "/delete-user", password ? { password } : {});
  if (!answer.ok) return failed(answer, {}, { "auth/missing-password": "password", "auth/invalid-credential": "password" });
  return data<FormOutcome>({ done: true }, { headers: withCookies(answer.cookies) });
}

/** Who is signed in, for screens that show a form only to them (read on the server, so it works without JavaScript). */
export async function signedInAccount(request: Request) {
  const user = await currentUser(request);
  return user ? { label: user.email ?? user.displayName ?? "訪客用戶", hasPassword: !user.isAnonymous } : null;
}
