import { useRef } from "react";
import type { EditValues } from "./editor-form";
import { imageMarkdown, insertBlock } from "./image-markdown";
import { useImageUpload, type UploadProgress } from "./image-upload";

/** The image types the file pickers offer (the server decides by the bytes). */
export const imageAccept = "image/png,image/jpeg,image/webp,image/gif";

/**
 * Images into the post: into the body at the caret (each upload's Markdown where the selection was), or as the
 * cover's link. One upload at a time (useImageUpload); a failed or cancelled one stops the rest.
 */
export function useEditorImages(edit: EditValues) {
  const images = useImageUpload();
  const bodyRef = useRef<HTMLTextAreaElement>(null);

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

  return { bodyRef, insertImages, uploadCover, progress: images.progress, error: images.error, cancel: images.cancel };
}

interface UploadStatusProps {
  progress: UploadProgress | null;
  error: string | null;
  onCancel: () => void;
}

/** The upload under way (with its cancel button), or why the last one did not go in. */
export function UploadStatus({ progress, error, onCancel }: UploadStatusProps) {
  return (
    <>
      {progress && (
        <p className="upload-status" role="status">
          <span>上傳中：{progress.name}</span>
          <progress max={100} value={progress.percent} aria-label="上傳進度">
            {progress.percent}%
          </progress>
          <span>{progress.percent}%</span>
          <button type="button" className="button" onClick={onCancel}>
            取消上傳
          </button>
        </p>
      )}
      {error && (
        <p className="editor-message editor-message--error" role="alert">
          圖片沒有上傳：{error}
        </p>
      )}
    </>
  );
}
