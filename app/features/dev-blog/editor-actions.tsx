import { useNavigation } from "react-router";
import type { EditablePost } from "./types";

/**
 * The form's buttons, each sending its `intent`: save, publish or unpublish, preview, and delete (behind a
 * confirmation). 預覽 and 刪除 go unchecked (`formNoValidate`); all wait while a submission is on its way.
 */
export function EditorActions({ post, published }: { post: EditablePost | null; published: boolean }) {
  const sending = useNavigation().state === "submitting";
  return (
    <>
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
    </>
  );
}
