import { data, redirect } from "react-router";
import { z } from "zod";
import { getEnv } from "~/config/env.server";
import type { FormResult } from "~/lib/form-result";
import { readForm } from "~/services/form.server";
import { guardedForm } from "~/services/request-guard.server";
import { requireEditor } from "./access.server";
import { devBlogTexts, postStore } from "./blog-service.server";
import { editHref, listHref, postHref } from "./links";
import { LIMITS, parsePostFields, POST_ID_PATTERN, versionSchema, type PostFormValues } from "./post-input";
import type { WriteResult } from "./posts.server";
import { renderPostBody } from "./render.server";
import type { EditablePost } from "./types";
import { goneMessage, staleCode, staleMessage } from "./editor-messages";

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

/**
 * What the editor is told after a refused or previewed submission (the form kit's result): the writer's values to
 * keep on the screen, `code` `staleCode` when the version it was based on no longer matches the stored post, and
 * `preview`, the body as the page's own renderer makes it.
 */
export type EditorResult = FormResult & { preview?: string };

const answer = (result: EditorResult, status = 200) => data<EditorResult>(result, { status });

/**
 * Every editor button posts here, under the request guard: preview (the page's own renderer), save, publish,
 * unpublish and delete. Each write names the version it was based on; a stale one is refused and nothing is
 * overwritten.
 */
export function editorAction(request: Request, id: string | undefined) {
  return guardedForm(request, async () => {
    const siteUrl = getEnv().SITE_URL;
    const user = await requireEditor(request);
    // A post's body may be long: the host's 64 KB ceiling is the form's.
    const fields = await readForm(request, 64 * 1024);
    const intent = intentSchema.safeParse(fields.intent).data;
    if (!intent) return answer({ formError: "不明的操作，請重新整理頁面後再試。", code: "form/malformed" }, 400);
    const values: PostFormValues = { title: fields.title ?? "", summary: fields.summary ?? "", body: fields.body ?? "", tags: fields.tags ?? "", cover: fields.cover ?? "" };

    if (intent === "preview") {
      if (values.body.length > LIMITS.body) return answer({ values, fieldErrors: { body: `內文最多 ${LIMITS.body} 個字` } }, 400);
      return answer({ values, preview: renderPostBody(values.body, siteUrl) });
    }

    const version = versionSchema.safeParse(fields.version).data;
    if (id !== undefined && (version === undefined || !POST_ID_PATTERN.test(id))) {
      return answer({ values, formError: "表單缺少版本資訊，請重新整理頁面後再試。", code: "form/malformed" }, 400);
    }

    if (intent === "delete") {
      if (id === undefined || version === undefined) return redirect(listHref());
      const removed = await postStore().remove(id, version);
      if (removed.ok) return redirect(listHref());
      return refused(values, removed.reason);
    }

    const parsed = parsePostFields({ ...values, intent });
    if (!parsed.ok) {
      return answer({ values, fieldErrors: parsed.errors, formError: parsed.publishOnly ? "發表前請補上標示的欄位。" : "請修正標示的欄位。" }, 400);
    }
    const status = intent === "publish" ? "published" : intent === "unpublish" ? "draft" : undefined;
    const result: WriteResult =
      id === undefined || version === undefined
        ? await postStore().create(parsed.fields, status ?? "draft", user.id)
        : await postStore().update(id, version, parsed.fields, status);
    if (!result.ok) return refused(values, result.reason);
    return redirect(result.status === "published" && status === "published" ? postHref(result.id) : `${editHref(result.id)}?saved=1`);
  });
}

function refused(values: PostFormValues, reason: "stale" | "not-found") {
  return reason === "stale" ? answer({ values, code: staleCode, formError: staleMessage }, 409) : answer({ values, code: "dev-blog/not-found", formError: goneMessage }, 404);
}
