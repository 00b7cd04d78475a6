import { useEffect, useRef, useState } from "react";
import { usePublicEnv } from "~/config/use-public-env";
import { avatarPath } from "./storage-paths";

/**
 * `更換大頭貼` in the user's dropdown: picks an image and uploads it to `users/<uid>/avatar`, where the server
 * crops it to a 256 px square without EXIF or GPS and keeps its link on the account; progress and cancel
 * while it goes, a Traditional-Chinese message when it fails.
 */
// The upload code loads on first use, and is fetched ahead when the pointer or focus reaches the picker: the picker
// sits in every signed-in page's bar, and most visits never change the photo (first-load budget, PRODUCT §9).
const loadUploader = () => import("./upload-client");
const prefetchUploader = () => void loadUploader().catch(() => undefined);

type Status = { kind: "idle" } | { kind: "uploading"; percent: number } | { kind: "done" } | { kind: "failed"; message: string };

export function ProfilePhotoPicker({ uid, onUploaded }: { uid: string; onUploaded(): void }) {
  const { storageBucket } = usePublicEnv();
  const [status, setStatus] = useState<Status>({ kind: "idle" });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const upload = async (file: File) => {
    controller.current = new AbortController();
    setStatus({ kind: "uploading", percent: 0 });
    try {
      const { uploadFile } = await loadUploader();
      await uploadFile(avatarPath(uid), file, {
        bucket: storageBucket,
        signal: controller.current.signal,
        onProgress: (sent, total) => setStatus({ kind: "uploading", percent: Math.floor((sent / total) * 100) }),
      });
      setStatus({ kind: "done" });
      onUploaded();
    } catch (error) {
      setStatus({ kind: "failed", message: await failureMessage(error) });
    } finally {
      controller.current = null;
    }
  };

  return (
    <div className="profile-photo">
      <label className="profile-photo__pick" onPointerEnter={prefetchUploader} onFocus={prefetchUploader}>
        更換大頭貼
        <input
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          className="profile-photo__input"
          disabled={status.kind === "uploading"}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            event.currentTarget.value = "";
            if (file) void upload(file);
          }}
        />
      </label>
      {status.kind === "uploading" && (
        <p className="profile-photo__status" role="status">
          <progress max={100} value={status.percent} aria-label="上傳進度" /> 上傳中 {status.percent}%{" "}
          <button type="button" onClick={() => controller.current?.abort()}>
            取消
          </button>
        </p>
      )}
      {status.kind === "done" && (
        <p className="profile-photo__status" role="status">
          大頭貼已更新
        </p>
      )}
      {status.kind === "failed" && (
        <p className="profile-photo__status profile-photo__status--error" role="alert">
          {status.message}
        </p>
      )}
    </div>
  );
}

async function failureMessage(error: unknown): Promise<string> {
  if (error instanceof Error && error.name === "StorageError") return error.message;
  // When the upload code itself could not load, the catalogue (in the same chunk) cannot either.
  const errors = await import("./storage-errors").catch(() => null);
  return errors?.storageErrorMessage("storage/unknown") ?? "網路連線中斷，請確認網路連線後再試一次";
}
