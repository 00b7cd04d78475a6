import type { BlobStore } from "./blob-store.server";
import type { ObjectLookup } from "./object-lookup.server";
import { checkPath, requireAccess, StorageFailure, type Caller } from "./storage-rules.server";
import { toWire } from "./wire-resource.server";

/** Serving a file's bytes. */
export function createObjectDownloads({ blobs, objects }: { blobs: Pick<BlobStore, "get">; objects: ObjectLookup }) {
  return {
    /** The bytes: with one of the file's download tokens, or for a caller the rules let read the path. */
    async download(caller: Caller | null, bucket: string, path: string, token: string | undefined) {
      objects.checkBucket(bucket);
      checkPath(path);
      if (token === undefined) requireAccess(caller, path);
      const row = await objects.existingObject(bucket, path);
      // A wrong token answers as a missing file does: a link never tells whether something else is stored there.
      if (token !== undefined && !row.download_tokens.split(",").includes(token)) {
        throw new StorageFailure(404, "storage/object-not-found");
      }
      const bytes = await blobs.get(row.blob_key);
      if (!bytes) throw new StorageFailure(404, "storage/object-not-found");
      return { resource: toWire(row), bytes, publicFile: !path.startsWith("users/") };
    },
  };
}
