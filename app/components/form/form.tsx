import { useState } from "react";
import { ResultNotice } from "~/components/result-notice";
import { useActionData, useLocation, useNavigation } from "react-router";
import type { ZodType } from "zod";
import { fieldErrorsOf, formFields, type FieldErrors, type FormResult } from "~/lib/form-result";
import "./form.css";

// The form kit's browser half: labelled fields, the alert and notice lines, the submit button, and the hook that
// checks a form with its one zod schema before it goes (the route action checks it again: app/services/form.server.ts).

/** A form's primary button, which says so while the form is on its way. */
export function SubmitButton({ pending, label, pendingLabel = "處理中…" }: { pending: boolean; label: string; pendingLabel?: string }) {
  return (
    <button type="submit" className="button button--primary" disabled={pending}>
      {pending ? pendingLabel : label}
    </button>
  );
}

interface FieldProps extends Omit<React.InputHTMLAttributes<HTMLInputElement>, "id" | "name"> {
  name: string;
  label: string;
  error?: string | null;
  /** Extra help shown under the field (e.g. the password rules), linked with aria-describedby. */
  hint?: React.ReactNode;
}

/** A labelled input whose error is announced and tied to it (aria-invalid, aria-describedby). */
export function Field({ name, label, error, hint, ...input }: FieldProps) {
  const id = `field-${name}`;
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="auth-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy || undefined} {...input} />
      {hint ? <div id={`${id}-hint`}>{hint}</div> : null}
      {error ? (
        <p id={`${id}-error`} className="auth-field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A form's error, brought into view below the sticky bar and focused on arrival (ResultNotice). */
export function FormAlert({ message }: { message: string | null }) {
  return message ? (
    <ResultNotice key={message} tone="error" className="auth-alert">
      {message}
    </ResultNotice>
  ) : null;
}

/** A form's result, brought into view below the sticky bar and focused on arrival (ResultNotice). */
export function FormNotice({ message }: { message: string | null }) {
  return message ? (
    <ResultNotice key={message} tone="done" className="auth-notice">
      {message}
    </ResultNotice>
  ) : null;
}

/**
 * A form's state: errors from its one zod schema (checked here before submitting when JavaScript is on,
 * and always again by the route action), the action's outcome, and whether a submission is under way. On a screen
 * with several forms, `intent` (the value of the form's `intent` field) keeps each to its own outcome and state.
 * The schema sees the pressed button's name and value (a form whose buttons say what to do, like the dev blog's
 * 儲存 and 發表); a button marked `formNoValidate` (預覽, 刪除) sends the form unchecked.
 */
export function useForm(schema: ZodType, intent?: string) {
  const answered = useActionData() as FormResult | undefined;
  const outcome = intent === undefined || answered?.intent === intent ? answered : undefined;
  const navigation = useNavigation();
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.formNoValidate) return setClientErrors(null);
    const result = schema.safeParse(formFields(new FormData(event.currentTarget, submitter)));
    if (result.success) return setClientErrors(null);
    event.preventDefault();
    setClientErrors(fieldErrorsOf(result.error));
  };
  return {
    action: useOwnAddress(),
    onSubmit,
    outcome,
    errors: clientErrors ?? outcome?.fieldErrors ?? {},
    pending: navigation.state !== "idle" && Boolean(navigation.formMethod) && (intent === undefined || navigation.formData?.get("intent") === intent),
  };
}

/**
 * The screen's own address (with its query) for its forms' `action`. The prerenderer renders `/signup` at
 * `/signup/`, and React Router's default action would keep that slash: a form sent before hydration would then
 * take a 308 redirect before reaching the action.
 */
export function useOwnAddress(): string {
  const { pathname, search } = useLocation();
  return `${pathname.replace(/(.)\/+$/, "$1")}${search}`;
}
