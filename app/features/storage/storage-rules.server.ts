import { storageErrorMessage, type StorageErrorBody, type StorageErrorCode, type StorageErrorDetail } from "./storage-errors";
import { blogPrefix, pathProblem, userPrefix } from "./storage-paths";

/**
 * The storage rules (PRODUCT §7), on the server: a signed-in user writes and reads only under `users/<uid>/`,
 * an editor also under `blog/`; a download token reads its one file (checked where the bytes are served);
 * the root is never written, read or deleted.
 */
export interface Caller {
  uid: string;
  editor: boolean;
}

/** A refusal or failure, answered in the Firebase error shape with a code of the original §8. */
export class StorageFailure extends Error {
  override name = "StorageFailure";
  constructor(
    readonly status: number,
    readonly code: StorageErrorCode,
    readonly detail?: StorageErrorDetail,
    /** Protocol headers that go with the refusal (Retry-After, X-Goog-Upload-Size-Received). */
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
  }

  body(): StorageErrorBody {
    return {
      error: {
        code: this.status,
        message: storageErrorMessage(this.code, this.detail),
        reason: this.code,
        ...(this.detail ? { detail: this.detail } : {}),
      },
    };
  }
}

/** Refuses the root and malformed paths before anything else. */
export function checkPath(path: string): void {
  const problem = pathProblem(path);
  if (problem === "root") throw new StorageFailure(400, "storage/invalid-root-operation");
  if (problem) throw new StorageFailure(400, "storage/invalid-argument", "invalid-path");
}

/** Whether `caller` may read and write at `path` (a file path, or a list prefix ending in `/`). */
export function mayAccess(caller: Caller, path: string): boolean {
  if (path.startsWith(userPrefix(caller.uid))) return true;
  return caller.editor && path.startsWith(blogPrefix);
}

/** 401 without a caller, 403 outside the caller's folders. */
export function requireAccess(caller: Caller | null, path: string): Caller {
  if (!caller) throw new StorageFailure(401, "storage/unauthenticated");
  if (!mayAccess(caller, path)) throw new StorageFailure(403, "storage/unauthorized");
  return caller;
}
