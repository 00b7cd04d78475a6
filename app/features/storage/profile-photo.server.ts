import type { createStorageService } from "./storage-service.server";
import { avatarPath } from "./storage-paths";
import { StorageFailure } from "./storage-rules.server";
import { storageErrorMessage } from "./storage-errors";

type StorageService = ReturnType<typeof createStorageService>;

/**
 * The profile photo from a plain form (the account screen, with or without JavaScript), through the same storage
 * service as the v0 protocol: the same size limit, quota, image checks, EXIF removal and 256 px square crop, and
 * the link kept on the user. `createStorage` hands the service in at start-up.
 */
let service: StorageService | undefined;

export function serveProfilePhotosFrom(storage: StorageService): void {
  service = storage;
}

export type PhotoOutcome = { ok: true } | { ok: false; status: number; message: string };

const failure = (error: unknown): PhotoOutcome => {
  if (error instanceof StorageFailure) return { ok: false, status: error.status, message: storageErrorMessage(error.code, error.detail) };
  throw error;
};

function storage(): StorageService {
  if (!service) throw new Error("file storage is not started");
  return service;
}

/** Stores `bytes` as the user's photo (replacing any), cropped to a centred square unless already square. */
export async function saveProfilePhoto(uid: string, bytes: Buffer): Promise<PhotoOutcome> {
  const files = storage();
  try {
    await files.upload({ uid, editor: false }, files.bucket, avatarPath(uid), bytes, {});
    return { ok: true };
  } catch (error) {
    return failure(error);
  }
}

/** Removes the user's photo and its link; removing a photo that is not there is no error. */
export async function removeProfilePhoto(uid: string): Promise<PhotoOutcome> {
  const files = storage();
  try {
    await files.remove({ uid, editor: false }, files.bucket, avatarPath(uid));
    return { ok: true };
  } catch (error) {
    if (error instanceof StorageFailure && error.code === "storage/object-not-found") return { ok: true };
    return failure(error);
  }
}
