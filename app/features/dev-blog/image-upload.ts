import { useCallback, useRef, useState } from "react";
import { usePublicEnv } from "~/config/use-public-env";
import { storageDetailMessages } from "~/features/storage/storage-errors";
import { uploadFile } from "~/features/storage/upload-client";
import { blogImagePath } from "./image-markdown";

const imageTypes = ["image/png", "image/jpeg", "image/webp", "image/gif"];

export interface UploadProgress {
  name: string;
  percent: number;
}

/**
 * One image upload at a time through the site's storage client (retries, progress, cancel), into `blog/`
 * (where editors may write). Answers the download link, or null when it failed or was cancelled; the reason
 * is in `error`, in the client's Traditional-Chinese words.
 */
export function useImageUpload() {
  const { storageBucket } = usePublicEnv();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);

  const upload = useCallback(
    async (file: File): Promise<string | null> => {
      setError(null);
      // The server decides by the bytes; this only spares a pointless upload of, say, a PDF.
      if (file.type && !imageTypes.includes(file.type)) {
        setError(storageDetailMessages["not-an-image"]);
        return null;
      }
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      setProgress({ name: file.name, percent: 0 });
      try {
        const random = crypto.randomUUID().slice(0, 8);
        const result = await uploadFile(blogImagePath(file.name, random), file, {
          bucket: storageBucket,
          signal: abort.signal,
          onProgress: (sent, total) => setProgress({ name: file.name, percent: total ? Math.min(100, Math.round((sent / total) * 100)) : 0 }),
        });
        return result.downloadURL;
      } catch (failure) {
        setError(failure instanceof Error ? failure.message : "上傳失敗，請重試");
        return null;
      } finally {
        if (controller.current === abort) {
          controller.current = null;
          setProgress(null);
        }
      }
    },
    [storageBucket],
  );

  const cancel = useCallback(() => controller.current?.abort(), []);
  return { upload, cancel, progress, error };
}
