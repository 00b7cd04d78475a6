import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { BlobWrites } from "./blob-writes.server";
import type { ObjectLookup } from "./object-lookup.server";
import { removeObject } from "./object-rows.server";
import { avatarPath } from "./storage-paths";
import { StorageFailure, type Caller } from "./storage-rules.server";
import type { UserImageLink } from "./user-image-link.server";

export interface ObjectRemovalDependencies {
  db: Kysely<Database>;
  objects: ObjectLookup;
  blobWrites: BlobWrites;
  userImage: UserImageLink;
}

/** Deleting a file: the row goes (its bytes into the trash) in one transaction, the bytes once it committed. */
export function createObjectRemoval({ db, objects, blobWrites, userImage }: ObjectRemovalDependencies) {
  return {
    async remove(caller: Caller | null, bucket: string, path: string) {
      const who = objects.requireObjectAccess(caller, bucket, path);
      const removed = await db.transaction().execute((trx) => removeObject(trx, bucket, path));
      if (!removed) throw new StorageFailure(404, "storage/object-not-found");
      await blobWrites.discard([removed.blob_key]);
      if (path === avatarPath(who.uid)) await userImage.setUserImage(who.uid, null);
    },
  };
}
