import { isForeignOrigin } from "~/services/request-guard.server";
import { readFormData } from "~/services/form.server";
import { data, redirect } from "react-router";
import { z } from "zod";
import { getEnv } from "~/config/env.server";
import { requireEditor } from "./access.server";
import { devBlogTexts, postStore } from "./blog-service.server";
import { editHref, listHref, postHref } from "./links";
import { LIMITS, parsePostFields, POST_ID_PATTERN, publishErrors, versionSchema, type FieldErrors, type PostFormValues } from "./post-input";
import type { WriteResult } from "./posts.server";
import { renderPostBody } from "./render.server";
import type { EditablePost } from "./types";
import { goneMessage, staleMessage } from "./editor-messages";

/** The editor screen's data: the post being edited (null when writing a new one). A visitor signs in first. */
export async function loadEditor(request: Request, id: string | undefined) {
  await requireEditor(request);
  const texts = devBlogTexts();
  if (id === undefined) return { post: null as EditablePost | null, preview: "", texts };
  const post = POST_ID_PATTERN.test(id) ? await postStore().getEditable(id) : null;
  if (!post) throw data({ notFound: texts.notFound }, { status: 404 });
  return { post, preview: renderPostBody(post.body, getEnv().SITE_URL), texts };
}

const intents = ["preview", "save", "publish", "unpublish", "delete"] as const;
export type EditorIntent = (typeof intents)[number];
const intentSchema = z.enum(intents);

/** What the editor is told after a refused or previewed submission; the form keeps the writer's values. */
export interface EditorActionData {
  values?: PostFormValues;
  errors?: FieldErrors;
  message?: string;
  /** The version the refused save was based on no longer matches the stored post. */
  stale?: boolean;
  preview?: string;
}


const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/**
 * Every editor button posts here: preview (the page's own renderer), save, publish, unpublish and delete.
 * Each write names the version it was based on; a stale one is refused and nothing is overwritten.
 */
export async function editorAction(request: Request, id: string | undefined) {
  const siteUrl = getEnv().SITE_URL;
  // Cookies are SameSite=Lax already; a foreign Origin on a write is refused outright as well (the request guard's rule).
  if (isForeignOrigin(request)) return data<EditorActionData>({ message: "請從本站的編輯畫面送出。" }, { status: 403 });
  const user = await requireEditor(request);
  // A post's body may be long: the host's 64 KB ceiling is the form's.
  const form = await readFormData(request, 64 * 1024);
  const intent = intentSchema.safeParse(form.get("intent")).data;
  if (!intent) return data<EditorActionData>({ message: "不明的操作，請重新整理頁面後再試。" }, { status: 400 });
  const values: PostFormValues = { title: text(form, "title"), summary: text(form, "summary"), body: text(form, "body"), tags: text(form, "tags"), cover: text(form, "cover") };

  if (intent === "preview") {
    if (values.body.length > LIMITS.body) return data<EditorActionData>({ values, errors: { body: `內文最多 ${LIMITS.body} 個字` } }, { status: 400 });
    return data<EditorActionData>({ values, preview: renderPostBody(values.body, siteUrl) });
  }

  const version = versionSchema.safeParse(form.get("version")).data;
  if (id !== undefined && (version === undefined || !POST_ID_PATTERN.test(id))) {
    return data<EditorActionData>({ values, message: "表單缺少版本資訊，請重新整理頁面後再試。" }, { status: 400 });
  }

  if (intent === "delete") {
    if (id === undefined || version === undefined) return redirect(listHref());
    const removed = await postStore().remove(id, version);
    if (removed.ok) return redirect(listHref());
    return refused(values, removed.reason);
  }

  const parsed = parsePostFields(values);
  if (!parsed.ok) return data<EditorActionData>({ values, errors: parsed.errors, message: "請修正標示的欄位。" }, { status: 400 });
  const status = intent === "publish" ? "published" : intent === "unpublish" ? "draft" : undefined;
  if (status === "published") {
    const errors = publishErrors(parsed.fields);
    if (Object.keys(errors).length) return data<EditorActionData>({ values, errors, message: "發表前請補上標示的欄位。" }, { status: 400 });
  }

  const result: WriteResult =
    id === undefined || version === undefined
      ? await postStore().create(parsed.fields, status ?? "draft", user.id)
      : await postStore().update(id, version, parsed.fields, status);
  if (!result.ok) return refused(values, result.reason);
  return redirect(result.status === "published" && status === "published" ? postHref(result.id) : `${editHref(result.id)}?saved=1`);
}

function refused(values: PostFormValues, reason: "stale" | "not-found") {
  return reason === "stale"
    ? data<EditorActionData>({ values, stale: true, message: staleMessage }, { status: 409 })
    : data<EditorActionData>({ values, message: goneMessage }, { status: 404 });
}
