import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { findObject } from "./object-rows.server";
import { checkPath, requireAccess, StorageFailure, type Caller } from "./storage-rules.server";

/** The checks an operation starts with: the service's one bucket, the path and the rules, and the file itself. */
export function createObjectLookup(db: Kysely<Database>, ownBucket: string) {
  const checkBucket = (bucket: string) => {
    if (bucket !== ownBucket) throw new StorageFailure(404, "storage/bucket-not-found");
  };

  return {
    checkBucket,

    /** The bucket, then the path, then the rules; answers the caller they let in. */
    requireObjectAccess(caller: Caller | null, bucket: string, path: string): Caller {
      checkBucket(bucket);
      checkPath(path);
      return requireAccess(caller, path);
    },

    async existingObject(bucket: string, path: string) {
      const row = await findObject(db, bucket, path);
      if (!row) throw new StorageFailure(404, "storage/object-not-found");
      return row;
    },
  };
}

export type ObjectLookup = ReturnType<typeof createObjectLookup>;
