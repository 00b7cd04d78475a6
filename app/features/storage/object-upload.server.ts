import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { BlobStore } from "./blob-store.server";
import type { BlobWrites } from "./blob-writes.server";
import { reencodeImage, sniffImageType, UnreadableImageError } from "./image-processing.server";
import { storedCustomMetadata, type MetadataInput } from "./metadata-input.server";
import type { ObjectLookup } from "./object-lookup.server";
import { findObject, quotaSizeOf, replaceObject, type ObjectRow } from "./object-rows.server";
import { avatarPath } from "./storage-paths";
import type { QuotaCheck } from "./storage-quota.server";
import { StorageFailure, type Caller } from "./storage-rules.server";
import type { UserImageLink } from "./user-image-link.server";
import { toWire } from "./wire-resource.server";

export interface ObjectUploadDependencies {
  db: Kysely<Database>;
  blobs: Pick<BlobStore, "delete">;
  limits: { maxUploadBytes: number; maxImageSide: number };
  objects: ObjectLookup;
  blobWrites: BlobWrites;
  quota: QuotaCheck;
  userImage: UserImageLink;
}

/** Profile photos (`users/<uid>/avatar`) are cropped to a square this many pixels wide. */
const avatarSide = 256;

/**
 * Storing an image: the size limit, the image checks and re-encoding, the quota, then the bytes under a fresh key
 * before the row points at them (a replace's displaced bytes go only after the change committed).
 */
export function createObjectUploads({ db, blobs, limits, objects, blobWrites, quota, userImage }: ObjectUploadDependencies) {
  /** Checks, re-encodes and stores one image; `finishing` names the resumable upload it completes (not counted twice). */
  async function store(caller: Caller, bucket: string, path: string, input: Buffer, metadata: MetadataInput, finishing?: string) {
    if (input.length > limits.maxUploadBytes) throw new StorageFailure(403, "storage/unauthorized", "too-large");
    const type = sniffImageType(input);
    if (!type) throw new StorageFailure(403, "storage/unauthorized", "not-an-image");
    const customMetadata = metadata.metadata ? storedCustomMetadata(metadata.metadata) : null;
    const avatar = path === avatarPath(caller.uid);
    let image;
    try {
      image = await reencodeImage(input, type, { maxSide: limits.maxImageSide, square: avatar ? avatarSide : undefined });
    } catch (error) {
      if (error instanceof UnreadableImageError) throw new StorageFailure(400, "storage/invalid-argument", "image-unreadable");
      throw error;
    }
    const existing = await findObject(db, bucket, path);
    const replaced = existing?.owner_id === caller.uid ? quotaSizeOf(existing) : 0;
    const added = image.bytes.length + (customMetadata ? Buffer.byteLength(customMetadata) : 0);
    await quota.requireRoom(caller.uid, added - replaced, finishing);
    const now = new Date().toISOString();
    const blobKey = `objects/${randomBytes(16).toString("hex")}`;
    await blobWrites.putBlob(blobKey, image.bytes, image.contentType);
    const row: ObjectRow = {
      bucket,
      path,
      owner_id: caller.uid,
      blob_key: blobKey,
      size: image.bytes.length,
      content_type: image.contentType,
      md5_hash: createHash("md5").update(image.bytes).digest("base64"),
      generation: String(Date.now() * 1000 + Math.floor(Math.random() * 1000)),
      metageneration: 1,
      cache_control: metadata.cacheControl ?? null,
      content_disposition: metadata.contentDisposition ?? null,
      content_encoding: metadata.contentEncoding ?? null,
      content_language: metadata.contentLanguage ?? null,
      custom_metadata: customMetadata,
      // A new token per upload: links to the old bytes stop working, and caches keyed on the token stay right.
      download_tokens: randomUUID(),
      created_at: now,
      updated_at: now,
    };
    let displaced;
    try {
      displaced = await replaceObject(db, row);
    } catch (error) {
      await blobs.delete(blobKey).catch(() => undefined);
      throw error;
    }
    if (displaced) await blobWrites.discard([displaced.blob_key]);
    if (avatar) await userImage.setUserImage(caller.uid, row);
    return toWire(row);
  }

  return {
    store,

    /** A one-request upload (multipart or raw). */
    async upload(caller: Caller | null, bucket: string, path: string, bytes: Buffer, metadata: MetadataInput) {
      return store(objects.requireObjectAccess(caller, bucket, path), bucket, path, bytes, metadata);
    },
  };
}
