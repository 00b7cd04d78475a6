import type { RefObject } from "react";
import type { EditorForm } from "./editor-form";
import { imageAccept } from "./editor-images";
import { fieldAria, FieldError } from "./field-error";
import { LIMITS } from "./post-input";

interface Props {
  form: Pick<EditorForm, "values" | "errors" | "change">;
  bodyRef: RefObject<HTMLTextAreaElement | null>;
  onImageFiles: (files: File[]) => void;
}

/** The Markdown body; images go in by paste, drop or the file picker (files only: pasted text stays the browser's). */
export function PostBodyField({ form: { values, errors, change }, bodyRef, onImageFiles }: Props) {
  const takeFiles = (event: React.ClipboardEvent | React.DragEvent, files: File[]) => {
    if (files.length) {
      event.preventDefault();
      onImageFiles(files);
    }
  };
  return (
    <div className="editor-field">
      <label htmlFor="post-body">內文（Markdown）</label>
      <textarea
        id="post-body"
        name="body"
        ref={bodyRef}
        value={values.body}
        onChange={change("body")}
        maxLength={LIMITS.body}
        {...fieldAria(errors, "body", "body-hint")}
        onPaste={(event) => takeFiles(event, [...event.clipboardData.files])}
        onDragOver={(event) => event.preventDefault()}
        onDrop={(event) => takeFiles(event, [...event.dataTransfer.files])}
      />
      <p className="editor-field__hint" id="body-hint">
        支援 Markdown；HTML 會以文字顯示。圖片可以貼上、拖放到這裡，或用下方按鈕選擇。
      </p>
      <label className="editor-field__hint">
        插入圖片：
        <input type="file" accept={imageAccept} multiple onChange={(event) => onImageFiles([...(event.target.files ?? [])])} />
      </label>
      <FieldError name="body" errors={errors} />
    </div>
  );
}
