import { data, redirect } from "react-router";
import type { FormResult } from "~/lib/form-result";
import { clientIpHeader } from "~/services/client-ip.server";
import { accountName } from "~/features/auth";
import { readForm, invalidForm } from "~/services/form.server";
import { getAuthService, type AuthService, operatorStanding, type OperatorStanding } from "~/features/auth/index.server";
import { confirmIdentityHref } from "~/features/account/recent-sign-in-alert";
import { recordSecurityEvent } from "~/features/security-record/security-record.server";
import { operatorActionSchema } from "./admin-schemas";
import { findParents, parentFile } from "./parent-lookup.server";
import { runOperatorAction, type OperatorContext } from "./operator-actions.server";
import type { ConsoleClosed, ConsoleSearch, ParentFile } from "./console-types";

/**
 * The operator console (/admin): for an admin (管理員) only, whose account has two-step sign-in or a passkey, whose
 * session was made with one of them (its `amr`: a password alone is not enough, whatever the account has), and who
 * has signed in (or confirmed who they are) within the last 10 minutes — checked on every page and every action.
 * A session short of the second factor or of the 10 minutes is sent to the step-up (confirm-identity with
 * `proof=two-step`: a code or a passkey, which renews the session as a two-step one) and back.
 * Everyone else gets the site's 404, so the console's existence is not told. Reads and actions work without
 * JavaScript; every action and every opened file lands in the security record with the operator's reason.
 */
export const consolePath = "/admin";
export const parentPath = (id: string) => `${consolePath}/users/${encodeURIComponent(id)}`;

const notFound = () => data<ConsoleClosed>({ state: "not-found" }, { status: 404 });

/** The step-up: a code or a passkey only (a password would renew the session as a one-step one), then back `to`. */
export const stepUpHref = (to: string) => `${confirmIdentityHref(to)}&proof=two-step`;

async function gate(request: Request, service: AuthService): Promise<{ operator: OperatorStanding } | { closed: ReturnType<typeof notFound> }> {
  const operator = await operatorStanding(request, service);
  if (!operator?.isAdmin) return { closed: notFound() };
  if (!operator.secondFactor) return { closed: data<ConsoleClosed>({ state: "needs-second-factor" }, { status: 403 }) };
  const here = new URL(request.url);
  const confirmHref = stepUpHref(here.pathname + here.search);
  if (!operator.sessionSecondFactor) return { closed: data<ConsoleClosed>({ state: "needs-step-up", confirmHref }, { status: 403 }) };
  if (!operator.recent) return { closed: data<ConsoleClosed>({ state: "needs-confirmation", confirmHref }, { status: 403 }) };
  return { operator };
}

const contextOf = (request: Request, operator: OperatorStanding): OperatorContext => ({
  operatorId: operator.id,
  ip: request.headers.get(clientIpHeader),
  userAgent: request.headers.get("user-agent"),
});

// `service` is the process's sign-in layer; tests hand in their own server's.

/** /admin?q=…: the search. */
export async function consoleSearch(request: Request, service: AuthService = getAuthService()) {
  const opened = await gate(request, service);
  if ("closed" in opened) return opened.closed;
  const query = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 200);
  const results = query.trim() ? await findParents(service.database, query) : null;
  const deleted = new URL(request.url).searchParams.get("deleted");
  return data<ConsoleSearch>({ state: "open", operator: { email: opened.operator.email }, query, results, deleted });
}

/** /admin/users/:id: one parent's file. Opening it is itself recorded (who looked at whose account, and when). */
export async function consoleParent(request: Request, userId: string, service: AuthService = getAuthService()) {
  const opened = await gate(request, service);
  if ("closed" in opened) return opened.closed;
  const file = await parentFile(service.database, userId);
  if (!file) return notFound();
  const by = contextOf(request, opened.operator);
  await recordSecurityEvent(service.database, { event: "admin-lookup", userId, actorId: by.operatorId, ip: by.ip, userAgent: by.userAgent });
  return data<ParentFile>({ state: "open", operator: { email: opened.operator.email }, ...file });
}

/** The actions on /admin/users/:id, told apart by `intent`; each needs a reason. */
export async function consoleParentAction(request: Request, userId: string, service: AuthService = getAuthService()) {
  const opened = await gate(request, service);
  if ("closed" in opened) {
    const closed = opened.closed.data;
    if (closed.state === "not-found") return opened.closed;
    const refusals = {
      "needs-second-factor": { formError: "請先開啟兩步驟驗證或新增密碼金鑰。", code: "admin/second-factor-required" },
      "needs-step-up": { formError: "這次登入沒有經過兩步驟驗證或密碼金鑰，請先用驗證碼或密碼金鑰確認身分再操作。", code: "admin/step-up-required" },
      "needs-confirmation": { formError: "距離上次確認身分已超過 10 分鐘，請先確認身分再操作。", code: "auth/requires-recent-login" },
    } as const;
    return data<FormResult>(refusals[closed.state], { status: 403 });
  }
  const fields = await readForm(request);
  const parsed = operatorActionSchema.safeParse(fields);
  if (!parsed.success) return invalidForm(parsed.error, {}, fields.intent);
  const target = await service.database.db.selectFrom("user").select(["id", "email", "emailVerified", "phoneNumber"]).where("id", "=", userId).executeTakeFirst();
  if (!target) return data<FormResult>({ formError: "找不到這個帳號，可能已被刪除。", intent: parsed.data.intent }, { status: 404 });
  const outcome = await runOperatorAction(service, target, parsed.data, contextOf(request, opened.operator));
  if ("refusal" in outcome) {
    const result: FormResult = outcome.field ? { fieldErrors: { [outcome.field]: outcome.refusal } } : { formError: outcome.refusal };
    return data<FormResult>({ ...result, intent: parsed.data.intent }, { status: 400 });
  }
  // A deleted account has no file left to show: back to the search, which says so.
  if (parsed.data.intent === "delete") {
    return redirect(`${consolePath}?${new URLSearchParams({ deleted: accountName(target.email, target.phoneNumber) || target.id })}`);
  }
  return data<FormResult>({ done: true, intent: parsed.data.intent, notice: outcome.notice });
}
