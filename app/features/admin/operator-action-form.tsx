import type { ReactNode } from "react";
import { Form, Link, useActionData, useLocation, useNavigation } from "react-router";
import { confirmIdentityHref } from "~/features/account/recent-sign-in-alert";
import { FormAlert, FormNotice } from "~/components/form/form";
import type { FormResult } from "~/lib/form-result";
import type { OperatorIntent } from "./admin-schemas";

/**
 * One operator action as its own form: what it does, any fields of its own, the reason (required: it lands in the
 * record) and its button. Its outcome shows beside it, and that of `follows` (the action whose form this one
 * replaces: unlock after lock); a stale confirmation, or a session made
 * without a second factor, leads to the step-up (a code or a passkey).
 */
export function OperatorActionForm({ intent, follows, title, help, button, children }: { intent: OperatorIntent; follows?: OperatorIntent; title: string; help: string; button: string; children?: ReactNode }) {
  const answered = useActionData() as FormResult | undefined;
  const outcome = answered?.intent === intent || (answered?.done && answered.intent === follows) || (answered && !answered.intent) ? answered : undefined;
  const busy = useNavigation().formData?.get("intent") === intent;
  const reasonError = outcome?.fieldErrors?.reason;
  const here = useLocation().pathname;
  return (
    <Form method="post" className="card admin-action" aria-labelledby={`action-${intent}`}>
      <h3 id={`action-${intent}`}>{title}</h3>
      <p>{help}</p>
      <FormNotice message={outcome?.done ? (outcome.notice ?? null) : null} />
      <FormAlert message={outcome?.formError ?? null} />
      {outcome?.code === "auth/requires-recent-login" || outcome?.code === "admin/step-up-required" ? <Link to={`${confirmIdentityHref(here)}&proof=two-step`}>用驗證碼或密碼金鑰確認身分</Link> : null}
      <input type="hidden" name="intent" value={intent} />
      {children}
      <label htmlFor={`reason-${intent}`}>原因（會記在安全紀錄）</label>
      <textarea id={`reason-${intent}`} name="reason" required minLength={2} maxLength={500} rows={2} aria-invalid={reasonError ? true : undefined} aria-describedby={reasonError ? `reason-${intent}-error` : undefined} />
      {reasonError ? (
        <p id={`reason-${intent}-error`} className="auth-field__error">
          {reasonError}
        </p>
      ) : null}
      <button type="submit" className="button" disabled={busy}>
        {busy ? "處理中…" : button}
      </button>
    </Form>
  );
}

/** A field error of an action's own field (the role, the typed email). */
export function ActionFieldError({ intent, field }: { intent: OperatorIntent; field: string }) {
  const answered = useActionData() as FormResult | undefined;
  const message = answered?.intent === intent ? answered.fieldErrors?.[field] : undefined;
  return message ? <p className="auth-field__error">{message}</p> : null;
}
