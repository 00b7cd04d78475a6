import type { EditorForm } from "./editor-form";
import { imageAccept } from "./editor-images";
import { fieldAria, FieldError } from "./field-error";
import { LIMITS } from "./post-input";

interface Props {
  form: Pick<EditorForm, "values" | "errors" | "change">;
  onCoverFile: (file: File) => void;
}

/** The fields around the body: title, summary, tags, and the cover (a link, or an image uploaded to fill it in). */
export function PostMetadataFields({ form: { values, errors, change }, onCoverFile }: Props) {
  return (
    <>
      <div className="editor-field">
        <label htmlFor="post-title">標題</label>
        <input id="post-title" name="title" value={values.title} onChange={change("title")} maxLength={LIMITS.title} required {...fieldAria(errors, "title")} />
        <FieldError name="title" errors={errors} />
      </div>
      <div className="editor-field">
        <label htmlFor="post-summary">摘要</label>
        <input id="post-summary" name="summary" value={values.summary} onChange={change("summary")} maxLength={LIMITS.summary} {...fieldAria(errors, "summary", "summary-hint")} />
        <p className="editor-field__hint" id="summary-hint">
          顯示在列表與搜尋結果中，發表前必填（最多 {LIMITS.summary} 字）。
        </p>
        <FieldError name="summary" errors={errors} />
      </div>
      <div className="editor-field">
        <label htmlFor="post-tags">標籤</label>
        <input id="post-tags" name="tags" value={values.tags} onChange={change("tags")} {...fieldAria(errors, "tags", "tags-hint")} />
        <p className="editor-field__hint" id="tags-hint">
          以逗號或頓號分隔，最多 {LIMITS.tags} 個，例如：效能, 無障礙
        </p>
        <FieldError name="tags" errors={errors} />
      </div>
      <div className="editor-field">
        <label htmlFor="post-cover">封面圖片網址</label>
        <input id="post-cover" name="cover" value={values.cover} onChange={change("cover")} {...fieldAria(errors, "cover", "cover-hint")} />
        <p className="editor-field__hint" id="cover-hint">
          可留白；或選擇圖片上傳後自動填入。
        </p>
        <label className="editor-field__hint">
          上傳封面圖片：
          <input type="file" accept={imageAccept} onChange={(event) => event.target.files?.[0] && onCoverFile(event.target.files[0])} />
        </label>
        {values.cover && !errors.cover && <img className="post-cover" src={values.cover} alt="封面預覽" />}
        <FieldError name="cover" errors={errors} />
      </div>
    </>
  );
}
