import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { Database } from "~/db/schema";
import { BlobStoreFullError, type BlobStore } from "./blob-store.server";
import { StorageFailure } from "./storage-rules.server";

export interface BlobWriteDependencies {
  db: Kysely<Database>;
  blobs: BlobStore;
  limits: { minFreeBytes: number };
  logger: Pick<Logger, "warn">;
}

/** Bytes into and out of the blob driver: the local disk's floor on the way in, the trash on the way out. */
export function createBlobWrites({ db, blobs, limits, logger }: BlobWriteDependencies) {
  /** Refuses a write that would leave less than the floor free on the local disk. */
  async function checkFreeSpace(bytes: number) {
    if (!blobs.freeBytes || limits.minFreeBytes <= 0) return;
    if ((await blobs.freeBytes()) - bytes < limits.minFreeBytes) throw storageFull();
  }

  return {
    /** Writes bytes; a full disk is the protocol's quota-exceeded (402), which clients do not retry. */
    async putBlob(key: string, bytes: Buffer, contentType: string) {
      await checkFreeSpace(bytes.length);
      try {
        await blobs.put(key, bytes, contentType);
      } catch (error) {
        if (error instanceof BlobStoreFullError) throw storageFull();
        throw error;
      }
    },

    /** Deletes bytes whose removal committed; a failure leaves them in the trash for the sweeper. */
    async discard(keys: string[]) {
      for (const key of keys) {
        try {
          await blobs.delete(key);
          await db.deleteFrom("storage_trash").where("blob_key", "=", key).execute();
        } catch (error) {
          logger.warn({ err: error }, "storage: bytes left in the trash for the sweeper");
        }
      }
    },
  };
}

export type BlobWrites = ReturnType<typeof createBlobWrites>;

function storageFull() {
  return new StorageFailure(402, "storage/quota-exceeded", "storage-full");
}
