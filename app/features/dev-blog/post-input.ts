import { z } from "~/lib/zod";
import { sameSitePath } from "~/lib/redirect-rule";

/**
 * What the editor form sends, validated with one schema in the browser and on the server (the server decides).
 * Tags arrive as one text field separated by commas (半形、全形) or 、; the cover is a same-site path; a draft may be unfinished, but a published post needs its summary and body.
 */
export const LIMITS = { title: 120, summary: 300, body: 100_000, tag: 30, tags: 8, cover: 2000 } as const;

export const POST_ID_PATTERN = /^[A-Za-z0-9]{20}$/;

const text = (max: number, label: string) =>
  z
    .string()
    .transform((value) => value.replace(/\r\n?/g, "\n").trim())
    .pipe(z.string().max(max, `${label}最多 ${max} 個字`));

const tagList = z
  .string()
  .transform((value) => [...new Set(value.split(/[,，、]/).map((tag) => tag.trim()).filter(Boolean))])
  .pipe(
    z
      .array(z.string().max(LIMITS.tag, `每個標籤最多 ${LIMITS.tag} 個字`))
      .max(LIMITS.tags, `最多 ${LIMITS.tags} 個標籤`),
  );

// Only the site's own images: the pages' CSP allows images from 'self' alone, and the path goes through the one
// redirect rule, so "/<TAB>/evil.example/x.png" can never be stored and served as another host's address.
const cover = z
  .string()
  .trim()
  .max(LIMITS.cover, "封面圖片網址太長")
  .transform((value, ctx) => {
    if (value === "") return null;
    const path = sameSitePath(value);
    if (!path) ctx.addIssue({ code: "custom", message: "封面圖片必須是本站的圖片路徑（以 / 開頭），例如上傳圖片後自動填入的網址" });
    return path;
  });

export const postFieldsSchema = z.object({
  title: text(LIMITS.title, "標題").pipe(z.string().min(1, "請輸入標題")),
  summary: text(LIMITS.summary, "摘要"),
  body: z
    .string()
    .transform((value) => value.replace(/\r\n?/g, "\n"))
    .pipe(z.string().max(LIMITS.body, `內文最多 ${LIMITS.body} 個字`)),
  tags: tagList,
  cover,
});

export type PostFields = z.output<typeof postFieldsSchema>;
/** The form's raw values (what the inputs hold). */
export type PostFormValues = z.input<typeof postFieldsSchema>;
export type FieldErrors = Partial<Record<keyof PostFormValues, string>>;

/** Publishing asks for more than saving a draft: readers need a summary and a body. */
export function publishErrors(fields: PostFields): FieldErrors {
  const errors: FieldErrors = {};
  if (!fields.summary) errors.summary = "發表前請填寫摘要";
  if (!fields.body.trim()) errors.body = "發表前請填寫內文";
  return errors;
}

export const versionSchema = z.coerce.number().int().min(0).max(2 ** 31 - 1);

export type ParsedFields = { ok: true; fields: PostFields } | { ok: false; errors: FieldErrors };

export function parsePostFields(values: Record<string, unknown>): ParsedFields {
  const result = postFieldsSchema.safeParse(values);
  if (result.success) return { ok: true, fields: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = issue.path[0] as keyof PostFormValues | undefined;
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return { ok: false, errors };
}

/** A saved post's fields as the form's values (tags back to one line). */
export function toFormValues(fields: PostFields): PostFormValues {
  return { title: fields.title, summary: fields.summary, body: fields.body, tags: fields.tags.join(", "), cover: fields.cover ?? "" };
}
