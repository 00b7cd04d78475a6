import { useState } from "react";
import { Link } from "react-router";
import { usePublicEnv } from "~/config/use-public-env";
import { AuthError } from "./auth-errors";
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
 * Runs one request at a time for a form: `pending` disables the button, a failure becomes `failure`
 * (the AuthError, so a screen can put the message on the field it concerns).
 */
export function useSubmission() {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<AuthError | null>(null);
  async function submit(action: () => Promise<void>) {
    if (pending) return;
    setPending(true);
    setFailure(null);
    try {
      await action();
    } catch (error) {
      setFailure(error instanceof AuthError ? error : new AuthError("auth/internal-error"));
    } finally {
      setPending(false);
    }
  }
  return { pending, failure, setFailure, submit };
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailProblem(email: string): string | null {
  if (!email.trim()) return "請輸入電子郵件地址";
  return emailPattern.test(email.trim()) ? null : "電子郵件格式不正確";
}
