import { useState } from "react";
import { Link, useActionData, useNavigation } from "react-router";
import type { ZodType } from "zod";
import { usePublicEnv } from "~/config/use-public-env";
import { fieldErrorsOf, formFields, type FieldErrors, type FormOutcome } from "./form-schemas";
import "./auth-screens.css";

/** The card every sign-in screen sits in: a way home, a heading, an optional lead sentence. */
export function AuthScreen({ title, lead, children }: { title: string; lead?: React.ReactNode; children: React.ReactNode }) {
  const env = usePublicEnv();
  return (
    <main className="auth-screen">
      <div className="auth-card">
        <Link to="/" className="auth-card__home">
          {env.productName}
        </Link>
        <h1>{title}</h1>
        {lead ? <p className="auth-card__lead">{lead}</p> : null}
        {children}
      </div>
    </main>
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

export function FormAlert({ message }: { message: string | null }) {
  return message ? (
    <p className="auth-alert" role="alert">
      {message}
    </p>
  ) : null;
}

export function FormNotice({ message }: { message: string | null }) {
  return message ? (
    <p className="auth-notice" role="status">
      {message}
    </p>
  ) : null;
}

/**
 * A sign-in form's state: errors from the shared zod schema (checked here before submitting when JavaScript is on,
 * and always again by the route action), the action's outcome, and whether a submission is under way. On a screen
 * with several forms, `intent` (the value of the form's `intent` field) keeps each to its own outcome and state.
 */
export function useAuthForm(schema: ZodType, intent?: string) {
  const answered = useActionData() as FormOutcome | undefined;
  const outcome = intent === undefined || answered?.intent === intent ? answered : undefined;
  const navigation = useNavigation();
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.name === "intent") return;
    const result = schema.safeParse(formFields(new FormData(event.currentTarget)));
    if (result.success) return setClientErrors(null);
    event.preventDefault();
    setClientErrors(fieldErrorsOf(result.error));
  };
  return {
    onSubmit,
    outcome,
    errors: clientErrors ?? outcome?.fieldErrors ?? {},
    pending: navigation.state !== "idle" && Boolean(navigation.formMethod) && (intent === undefined || navigation.formData?.get("intent") === intent),
  };
}
