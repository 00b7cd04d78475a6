import { useSearchParams } from "react-router";
import { formatTaiwanDateTime } from "~/lib/taiwan-time";
import type { EditorForm } from "./editor-form";
import type { EditorResult } from "./editor.server";
import { staleCode } from "./editor-messages";
import { editHref } from "./links";
import type { EditablePost } from "./types";

interface Props {
  post: EditablePost | null;
  actionData: EditorResult | undefined;
  form: Pick<EditorForm, "dirty" | "draft" | "edit">;
}

/**
 * The messages above the form: a copy this browser kept of unsent work (restore or discard), 已儲存 after a save,
 * and a refused submission, which for a stale save offers the latest version.
 */
export function EditorNotices({ post, actionData, form: { dirty, draft, edit } }: Props) {
  const [searchParams] = useSearchParams();
  const justSaved = searchParams.get("saved") === "1" && !dirty && !actionData;
  return (
    <>
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
    </>
  );
}
