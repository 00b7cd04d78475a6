import { useEffect, useMemo, useRef, useState } from "react";
import { formatTaiwanDateTime } from "~/lib/taiwan-time";
import { Form, Link, useFetcher, useFormAction, useNavigation, useSearchParams } from "react-router";
import { useForm } from "~/components/form/form";
import { Prose } from "~/features/articles/prose";
import { sameValues, useBrowserDraft } from "./browser-draft";
import { DevBlogStyles } from "./dev-blog-styles";
import type { EditorResult } from "./editor.server";
import { staleCode } from "./editor-messages";
import { imageMarkdown, insertBlock } from "./image-markdown";
import { useImageUpload } from "./image-upload";
import { useLeaveWarning } from "./leave-warning";
import { devBlogPath, editHref, postHref } from "./links";
import { LIMITS, postFormSchema, toFormValues, type PostFormValues } from "./post-input";
import type { EditablePost } from "./types";

interface Props {
  post: EditablePost | null;
  /** The saved body rendered by the page's own renderer (empty for a new post). */
  initialPreview: string;
  actionData: EditorResult | undefined;
  titles: { createTitle: string; editTitle: string };
}

const emptyValues: PostFormValues = { title: "", summary: "", body: "", tags: "", cover: "" };
const previewDelayMs = 400;

/**
 * The one editor screen for writing and editing a post. A plain POST form (works before the JavaScript
 * arrives: the 預覽 button renders on the server); with JavaScript the preview follows the typing, images go
 * in by upload, paste or drop, the browser keeps a copy of unsent work, and leaving with changes asks first. The
 * form's one schema checks 儲存 and 發表 before they go (預覽 and 刪除 go as they are) and again in the action.
 */
export function PostEditor({ post, initialPreview, actionData, titles }: Props) {
  const saved = useMemo(
    () => (post ? toFormValues({ title: post.title, summary: post.summary, body: post.body, tags: post.tags, cover: post.coverUrl }) : emptyValues),
    [post],
  );
  const [values, setValues] = useState<PostFormValues>(actionData?.values ? { ...emptyValues, ...actionData.values } : saved);
  const form = useForm(postFormSchema);
  const dirty = !sameValues(values, saved);
  const draft = useBrowserDraft(post?.id ?? null, values, saved, actionData);
  const leave = useLeaveWarning(dirty);
  // A change after a submission let the page go is unsaved again at once, before the answer's navigation lands.
  const edit: typeof setValues = (update) => {
    leave.guardAgain();
    setValues(update);
  };
  const navigation = useNavigation();
  const sending = navigation.state === "submitting";
  const [searchParams] = useSearchParams();
  const justSaved = searchParams.get("saved") === "1" && !dirty && !actionData;

  useEffect(() => {
    if (actionData) leave.guardAgain();
  }, [actionData, leave]);

  const preview = useLivePreview(values.body, initialPreview, actionData?.preview);
  const images = useImageUpload();
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const set = (name: keyof PostFormValues) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    edit((current) => ({ ...current, [name]: event.target.value }));

  async function insertImages(files: File[]) {
    for (const file of files) {
      const url = await images.upload(file);
      if (!url) return;
      const area = bodyRef.current;
      edit((current) => {
        const start = area?.selectionStart ?? current.body.length;
        const end = area?.selectionEnd ?? start;
        return { ...current, body: insertBlock(current.body, start, end, imageMarkdown(file.name, url)).text };
      });
    }
  }

  async function uploadCover(file: File) {
    const url = await images.upload(file);
    if (url) edit((current) => ({ ...current, cover: url }));
  }

  const errors = form.errors;
  const published = post?.status === "published";
  const fieldError = (name: keyof PostFormValues) =>
    errors[name] ? (
      <p className="editor-field__error" id={`${name}-error`}>
        {errors[name]}
      </p>
    ) : null;
  const describedBy = (name: keyof PostFormValues, hint?: string) => [hint, errors[name] && `${name}-error`].filter(Boolean).join(" ") || undefined;

  return (
    <main className="page">
      <DevBlogStyles />
      <p className="breadcrumb">
        <Link to={devBlogPath}>開發日誌</Link>
        {post && (
          <>
            <span aria-hidden="true"> › </span>
            <Link to={postHref(post.id)}>{published ? "檢視已發表的文章" : "檢視草稿頁面"}</Link>
          </>
        )}
      </p>
      <h1>{post ? titles.editTitle : titles.createTitle}</h1>
      <p>
        目前狀態：<strong>{post ? (published ? "已發表" : "草稿") : "尚未儲存"}</strong>
        {dirty && "（有尚未儲存的修改）"}
      </p>

      {draft.offered && (
        <div className="editor-message" role="status">
          <p>這個瀏覽器保存了一份尚未送出的內容（{formatTaiwanDateTime(draft.offered.savedAt)}）。</p>
          <p className="editor-actions">
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                if (draft.offered) edit(draft.offered.values);
                draft.accept();
              }}
            >
              還原這份內容
            </button>
            <button type="button" className="button" onClick={draft.discard}>
              捨棄
            </button>
          </p>
        </div>
      )}
      {justSaved && (
        <p className="editor-message editor-message--success" role="status">
          已儲存。
        </p>
      )}
      {actionData?.formError && (
        <div className="editor-message editor-message--error" role="alert">
          <p>{actionData.formError}</p>
          {actionData.code === staleCode && post && (
            <p>
              <a href={editHref(post.id)}>重新載入最新版本</a>（未儲存的內容會被換掉，請先複製）
            </p>
          )}
        </div>
      )}

      <Form
        method="post"
        className="post-editor"
        onSubmit={(event) => {
          form.onSubmit(event);
          if (event.defaultPrevented) return;
          leave.allowNext();
          draft.forget();
        }}
      >
        {post && <input type="hidden" name="version" value={post.version} />}
        <div className="editor-field">
          <label htmlFor="post-title">標題</label>
          <input id="post-title" name="title" value={values.title} onChange={set("title")} maxLength={LIMITS.title} required aria-invalid={Boolean(errors.title)} aria-describedby={describedBy("title")} />
          {fieldError("title")}
        </div>
        <div className="editor-field">
          <label htmlFor="post-summary">摘要</label>
          <input id="post-summary" name="summary" value={values.summary} onChange={set("summary")} maxLength={LIMITS.summary} aria-invalid={Boolean(errors.summary)} aria-describedby={describedBy("summary", "summary-hint")} />
          <p className="editor-field__hint" id="summary-hint">
            顯示在列表與搜尋結果中，發表前必填（最多 {LIMITS.summary} 字）。
          </p>
          {fieldError("summary")}
        </div>
        <div className="editor-field">
          <label htmlFor="post-tags">標籤</label>
          <input id="post-tags" name="tags" value={values.tags} onChange={set("tags")} aria-invalid={Boolean(errors.tags)} aria-describedby={describedBy("tags", "tags-hint")} />
          <p className="editor-field__hint" id="tags-hint">
            以逗號或頓號分隔，最多 {LIMITS.tags} 個，例如：效能, 無障礙
          </p>
          {fieldError("tags")}
        </div>
        <div className="editor-field">
          <label htmlFor="post-cover">封面圖片網址</label>
          <input id="post-cover" name="cover" value={values.cover} onChange={set("cover")} aria-invalid={Boolean(errors.cover)} aria-describedby={describedBy("cover", "cover-hint")} />
          <p className="editor-field__hint" id="cover-hint">
            可留白；或選擇圖片上傳後自動填入。
          </p>
          <label className="editor-field__hint">
            上傳封面圖片：
            <input type="file" accept="image/png,image/jpeg,image/webp,image/gif" onChange={(event) => event.target.files?.[0] && void uploadCover(event.target.files[0])} />
          </label>
          {values.cover && !errors.cover && <img className="post-cover" src={values.cover} alt="封面預覽" />}
          {fieldError("cover")}
        </div>

        <div className="editor-panes">
          <div className="editor-field">
            <label htmlFor="post-body">內文（Markdown）</label>
            <textarea
              id="post-body"
              name="body"
              ref={bodyRef}
              value={values.body}
              onChange={set("body")}
              maxLength={LIMITS.body}
              aria-invalid={Boolean(errors.body)}
              aria-describedby={describedBy("body", "body-hint")}
              onPaste={(event) => {
                const files = [...event.clipboardData.files];
                if (files.length) {
                  event.preventDefault();
                  void insertImages(files);
                }
              }}
              onDragOver={(event) => event.preventDefault()}
              onDrop={(event) => {
                const files = [...event.dataTransfer.files];
                if (files.length) {
                  event.preventDefault();
                  void insertImages(files);
                }
              }}
            />
            <p className="editor-field__hint" id="body-hint">
              支援 Markdown；HTML 會以文字顯示。圖片可以貼上、拖放到這裡，或用下方按鈕選擇。
            </p>
            <label className="editor-field__hint">
              插入圖片：
              <input type="file" accept="image/png,image/jpeg,image/webp,image/gif" multiple onChange={(event) => void insertImages([...(event.target.files ?? [])])} />
            </label>
            {fieldError("body")}
          </div>
          <section aria-labelledby="preview-title">
            <h2 id="preview-title">預覽</h2>
            <div className="editor-preview" aria-live="polite" aria-busy={preview.pending}>
              {preview.html ? <Prose html={preview.html} /> : <p className="editor-field__hint">內文的預覽會顯示在這裡，與發表後的樣子相同。</p>}
            </div>
          </section>
        </div>

        {images.progress && (
          <p className="upload-status" role="status">
            <span>上傳中：{images.progress.name}</span>
            <progress max={100} value={images.progress.percent} aria-label="上傳進度">
              {images.progress.percent}%
            </progress>
            <span>{images.progress.percent}%</span>
            <button type="button" className="button" onClick={images.cancel}>
              取消上傳
            </button>
          </p>
        )}
        {images.error && (
          <p className="editor-message editor-message--error" role="alert">
            圖片沒有上傳：{images.error}
          </p>
        )}

        <div className="editor-actions">
          <button type="submit" name="intent" value="save" className="button" disabled={sending}>
            {published ? "儲存變更" : "儲存草稿"}
          </button>
          {published ? (
            <button type="submit" name="intent" value="unpublish" className="button" disabled={sending}>
              取消發表（改回草稿）
            </button>
          ) : (
            <button type="submit" name="intent" value="publish" className="button button--primary" disabled={sending}>
              發表
            </button>
          )}
          <button type="submit" name="intent" value="preview" className="button" formNoValidate disabled={sending}>
            更新預覽
          </button>
          {sending && <span role="status">送出中…</span>}
        </div>

        {post && (
          <details className="delete-post">
            <summary>刪除這篇文章</summary>
            <p>刪除後無法復原，讀者也將無法再開啟這篇文章。確定要刪除「{post.title}」嗎？</p>
            <button type="submit" name="intent" value="delete" className="button button--danger" formNoValidate disabled={sending}>
              確定刪除
            </button>
          </details>
        )}
      </Form>
    </main>
  );
}

/**
 * The preview follows the body a moment after typing stops. It is rendered by the server's own renderer (the
 * editor action's `preview`), so what the writer sees is exactly what readers will get.
 */
function useLivePreview(body: string, initialHtml: string, submittedHtml: string | undefined) {
  const fetcher = useFetcher<EditorResult>();
  // The editor's own address, fixed at render: a fetcher without one posts to the router's current location, which
  // is already the published post while its screen loads (發表 tapped within the delay), and that route has no action.
  const action = useFormAction();
  const renderedBody = useRef(body);
  useEffect(() => {
    if (body === renderedBody.current) return;
    const timer = window.setTimeout(() => {
      renderedBody.current = body;
      void fetcher.submit({ intent: "preview", body }, { method: "post", action });
    }, previewDelayMs);
    return () => window.clearTimeout(timer);
  }, [body, fetcher, action]);
  return { html: fetcher.data?.preview ?? submittedHtml ?? initialHtml, pending: fetcher.state !== "idle" };
}
