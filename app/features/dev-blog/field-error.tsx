import type { FieldErrors } from "~/lib/form-result";
import type { PostFormValues } from "./post-input";

type FieldName = keyof PostFormValues;

/** A field's error line; its id (`<name>-error`) ties it to the field through `fieldAria`. */
export function FieldError({ name, errors }: { name: FieldName; errors: FieldErrors }) {
  return errors[name] ? (
    <p className="editor-field__error" id={`${name}-error`}>
      {errors[name]}
    </p>
  ) : null;
}

/** A field's invalid state, and what describes it: its hint (by id) and its error line when shown. */
export function fieldAria(errors: FieldErrors, name: FieldName, hint?: string) {
  return {
    "aria-invalid": Boolean(errors[name]),
    "aria-describedby": [hint, errors[name] && `${name}-error`].filter(Boolean).join(" ") || undefined,
  };
}
