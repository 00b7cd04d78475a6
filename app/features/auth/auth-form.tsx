import { useState } from "react";
import { Form, Link, useActionData, useLocation, useNavigation, useSearchParams } from "react-router";
import type { ZodType } from "zod";
import { usePublicEnv } from "~/config/use-public-env";
import { fieldErrorsOf, formFields, type FieldErrors, type FormOutcome } from "./form-schemas";
import { safeRedirect } from "./redirect-rule";
import { isHostPath } from "./auth-paths";
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

/** Where to go once signed in: the screen's `redirectTo` parameter, as far as the redirect rule allows it. */
export function useRedirectTo(): string {
  const [params] = useSearchParams();
  return safeRedirect(params.get("redirectTo"), usePublicEnv().siteUrl);
}

/** A screen whose one way on is a link (continue, sign in, ask for a new email). */
export function NextStep({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <div className="auth-actions">
      <Link className="button button--primary" to={to} reloadDocument={isHostPath(to)}>
        {children}
      </Link>
    </div>
  );
}

/**
 * What a sign-in screen shows an account that is already signed in: continue, or sign out. Signing out posts
 * `intent=logout` to the login route's action (`logoutAction`; the screen's own route when left out).
 */
export function SignedInScreen({ title, lead, redirectTo, logoutAction }: { title: string; lead: string; redirectTo: string; logoutAction?: string }) {
  return (
    <AuthScreen title={title} lead={lead}>
      <Form method="post" action={logoutAction} className="auth-actions">
        <Link className="button button--primary" to={redirectTo} reloadDocument={isHostPath(redirectTo)}>
          繼續
        </Link>
        <button type="submit" name="intent" value="logout" className="button">
          登出
        </button>
      </Form>
    </AuthScreen>
  );
}

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
