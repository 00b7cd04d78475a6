import { data } from "react-router";
import type { z } from "zod";
import { fieldErrorsOf, formFields, type FormResult } from "~/lib/form-result";

/**
 * The form kit's server half: every route action reads its form here and checks it with the same zod schema the
 * browser used. A body that is not a form (JSON, plain text, a multipart body without its boundary, broken
 * bytes) or is too big is the sender's mistake: 415 / 400 / 413 with a Traditional-Chinese sentence in the one
 * result shape, never a server error.
 */
const formTypes = ["application/x-www-form-urlencoded", "multipart/form-data"];

/** The host caps every body at 64 KB; a form's own ceiling is smaller still. */
export const MAX_FORM_BYTES = 32 * 1024;

const refused = (status: 400 | 413 | 415, code: string, formError: string) => data<FormResult>({ formError, code }, { status });

/** The posted form as FormData (for a form with repeated names), or a thrown 4xx answer. */
export async function readFormData(request: Request, maxBytes = MAX_FORM_BYTES): Promise<FormData> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!formTypes.includes(type)) throw refused(415, "form/unsupported-media-type", "這裡只接受網頁表單送出的資料，請重新整理頁面後再試一次。");
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > maxBytes) throw refused(413, "form/too-large", "送出的資料過大，請縮短內容後再試一次。");
  try {
    return await request.formData();
  } catch {
    throw refused(400, "form/malformed", "送出的表單資料格式不正確，請重新整理頁面後再試一次。");
  }
}

/** The posted form's text fields, or a thrown 4xx answer. */
export async function readForm(request: Request, maxBytes = MAX_FORM_BYTES): Promise<Record<string, string>> {
  return formFields(await readFormData(request, maxBytes));
}

/**
 * Reads the form and checks it with its schema: the parsed value, or `invalid` — the 400 answer naming each wrong
 * field, for the action to return (the screen shows it beside the fields). `keep` picks typed values to show again.
 */
export async function parseForm<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  keep: (fields: Record<string, string>) => Record<string, string> = () => ({}),
) {
  const fields = await readForm(request);
  const parsed = schema.safeParse(fields);
  return parsed.success
    ? { fields, value: parsed.data as z.output<Schema>, invalid: null }
    : { fields, value: null, invalid: invalidForm(parsed.error, keep(fields)) };
}

/** 400 with the first message per field; `values` are the typed values to show again (never a password). */
export function invalidForm(error: z.ZodError, values: Record<string, string> = {}, intent?: string) {
  return data<FormResult>({ fieldErrors: fieldErrorsOf(error), values, intent }, { status: 400 });
}

/** A form with an `intent` field that names no form of the screen. */
export const unknownIntent = () => refused(400, "form/malformed", "送出的表單資料格式不正確，請重新整理頁面後再試一次。");
