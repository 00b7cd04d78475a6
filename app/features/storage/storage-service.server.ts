import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { Logger } from "pino";
import type { BlobStore } from "./blob-store.server";
import { createBlobWrites } from "./blob-writes.server";
import { createObjectDownloads } from "./object-download.server";
import { createObjectListing } from "./object-listing.server";
import { createObjectLookup } from "./object-lookup.server";
import { createObjectMetadata } from "./object-metadata.server";
import { createObjectRemoval } from "./object-removal.server";
import { createObjectUploads } from "./object-upload.server";
import { createResumableUploads } from "./resumable-uploads.server";
import { createQuotaCheck } from "./storage-quota.server";
import { createUserImageLink } from "./user-image-link.server";

export interface StorageLimits {
  maxUploadBytes: number;
  userQuotaBytes: number;
  maxImageSide: number;
  /** Unfinished resumable uploads one account may hold at once. */
  maxOpenUploads: number;
  /** Uploads stop when less than this would stay free on the local disk (the database keeps room). */
  minFreeBytes: number;
}

export interface StorageServiceDependencies {
  db: Kysely<Database>;
  blobs: BlobStore;
  bucket: string;
  limits: StorageLimits;
  /** The site's origin, for the profile-photo link kept on the user. */
  siteUrl: string;
  logger: Pick<Logger, "warn">;
}

/**
 * The storage operations of the v0 protocol, each applying the rules (storage-rules.server.ts), the image
 * checks and re-encoding, the size limit and the per-user quota (files, their custom metadata and unfinished
 * uploads; resumable uploads themselves: resumable-uploads.server.ts). Rows hold the metadata; the bytes sit in the blob driver under a fresh
 * key per upload, so a replace writes the new bytes before the row points at them, and displaced bytes are
 * deleted only after the change committed (through the trash, storage-sweeper.server.ts). Put together here
 * from one builder per concern; a one-request upload and a finished resumable one are stored the same way.
 */
export function createStorageService(deps: StorageServiceDependencies) {
  const { db, blobs, limits } = deps;
  const objects = createObjectLookup(db, deps.bucket);
  const blobWrites = createBlobWrites({ db, blobs, limits, logger: deps.logger });
  const quota = createQuotaCheck(db, limits);
  const userImage = createUserImageLink(db, deps.siteUrl);
  const uploads = createObjectUploads({ db, blobs, limits, objects, blobWrites, quota, userImage });
  const resumable = createResumableUploads({
    db,
    limits,
    checkBucket: objects.checkBucket,
    getBlob: (key) => blobs.get(key),
    putBlob: blobWrites.putBlob,
    discard: blobWrites.discard,
    store: uploads.store,
  });

  return {
    bucket: deps.bucket,
    limits,
    upload: uploads.upload,
    ...createObjectMetadata({ db, objects, quota }),
    ...createObjectDownloads({ blobs, objects }),
    ...createObjectRemoval({ db, objects, blobWrites, userImage }),
    ...createObjectListing({ db, objects }),
    ...resumable,
  };
}

export type StorageService = ReturnType<typeof createStorageService>;
