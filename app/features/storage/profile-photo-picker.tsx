import { useEffect, useRef, useState } from "react";
import { usePublicEnv } from "~/config/use-public-env";
import { StorageError, storageErrorMessage } from "./storage-errors";
import { avatarPath } from "./storage-paths";
import { uploadFile } from "./upload-client";

/**
 * `更換大頭貼` in the user's dropdown: picks an image and uploads it to `users/<uid>/avatar`, where the server
 * crops it to a 256 px square without EXIF or GPS and keeps its link on the account; progress and cancel
 * while it goes, a Traditional-Chinese message when it fails.
 */
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
      await uploadFile(avatarPath(uid), file, {
        bucket: storageBucket,
        signal: controller.current.signal,
        onProgress: (sent, total) => setStatus({ kind: "uploading", percent: Math.floor((sent / total) * 100) }),
      });
      setStatus({ kind: "done" });
      onUploaded();
    } catch (error) {
      const message = error instanceof StorageError ? error.message : storageErrorMessage("storage/unknown");
      setStatus({ kind: "failed", message });
    } finally {
      controller.current = null;
    }
  };

  return (
    <div className="profile-photo">
      <label className="profile-photo__pick">
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
