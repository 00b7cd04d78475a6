import type { z } from "~/lib/zod";

/**
 * The one result shape of every form of the site (sign-in, account, wishing well, developer blog): what a route
 * action hands back to its screen when it does not redirect, in the browser's and the server's code alike.
 * Never a password.
 */
export type FieldErrors = Partial<Record<string, string>>;

export interface FormResult {
  fieldErrors?: FieldErrors;
  formError?: string;
  code?: string;
  /** Typed values to fill in again (email, display name). */
  values?: Record<string, string>;
  /** The form did its work (a mail went out, an account was deleted, a wish was saved). */
  done?: boolean;
  /** What to tell the user when it did, where the screen does not say it itself. */
  notice?: string;
  /** Which form answered, on a screen with several (its `intent` field). */
  intent?: string;
}

/** The first message per field, keyed by the field's name. */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}

/** A form's fields as plain strings (files and repeated names have no place in these forms). */
export function formFields(form: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string") fields[name] ??= value;
  return fields;
}
