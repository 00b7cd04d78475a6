import { fieldErrorsOf, type FieldErrors } from "~/lib/form-result";
import { z } from "~/lib/zod";
import { sameSitePath } from "~/lib/redirect-rule";

/**
 * What the editor form sends, validated with one schema (`postFormSchema`) in the browser and in the action (the
 * action decides).
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

/** Publishing asks for more than saving a draft: readers need a summary and a body. */
function publishErrors(fields: PostFields): FieldErrors {
  const errors: FieldErrors = {};
  if (!fields.summary) errors.summary = "發表前請填寫摘要";
  if (!fields.body.trim()) errors.body = "發表前請填寫內文";
  return errors;
}

const publishRule = "publish";

/**
 * The editor form's one schema, run by the browser before 儲存 or 發表 (the form kit's `useForm`) and by the editor
 * action: the post's fields, and when the button pressed is 發表 (`intent`), what readers need as well.
 */
export const postFormSchema = postFieldsSchema.extend({ intent: z.string().optional() }).superRefine(({ intent, ...fields }, ctx) => {
  if (intent !== "publish") return;
  for (const [field, message] of Object.entries(publishErrors(fields))) ctx.addIssue({ code: "custom", path: [field], message, params: { rule: publishRule } });
});

export const versionSchema = z.coerce.number().int().min(0).max(2 ** 31 - 1);

export type ParsedFields = { ok: true; fields: PostFields } | { ok: false; errors: FieldErrors; publishOnly: boolean };

/** The editor form checked with its schema: the post's fields, or the first message per field and whether only the publish rule refused. */
export function parsePostFields(values: Record<string, unknown>): ParsedFields {
  const result = postFormSchema.safeParse(values);
  if (result.success) return { ok: true, fields: result.data };
  const publishOnly = result.error.issues.every((issue) => issue.code === "custom" && issue.params?.rule === publishRule);
  return { ok: false, errors: fieldErrorsOf(result.error), publishOnly };
}

/** A saved post's fields as the form's values (tags back to one line). */
export function toFormValues(fields: PostFields): PostFormValues {
  return { title: fields.title, summary: fields.summary, body: fields.body, tags: fields.tags.join(", "), cover: fields.cover ?? "" };
}
