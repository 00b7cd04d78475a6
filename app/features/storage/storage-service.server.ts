import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { Logger } from "pino";
import { BlobStoreFullError, type BlobStore } from "./blob-store.server";
import type { WireObjectResource } from "./file-metadata";
import { reencodeImage, sniffImageType, UnreadableImageError } from "./image-processing.server";
import { storedCustomMetadata, type MetadataInput } from "./metadata-input.server";
import {
  chunkKeys,
  findObject,
  pathsUnder,
  quotaSizeOf,
  removeObject,
  replaceObject,
  trashBlobs,
  updateObject,
  usageOf,
  type ObjectRow,
} from "./object-rows.server";
import { avatarPath, downloadUrl } from "./storage-paths";
import { checkPath, requireAccess, StorageFailure, type Caller } from "./storage-rules.server";

/**
 * The storage operations of the v0 protocol, each applying the rules (storage-rules.server.ts), the image
 * checks and re-encoding, the size limit, the per-user quota (files, their custom metadata and unfinished
 * uploads) and the cap on open uploads. Rows hold the metadata; the bytes sit in the blob driver under a fresh
 * key per upload, so a replace writes the new bytes before the row points at them, and displaced bytes are
 * deleted only after the change committed (through the trash, storage-sweeper.server.ts).
 */
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

export const avatarSide = 256;
/** Resumable uploads left unfinished this long are dropped (a 5 MB upload takes minutes on a slow phone). */
export const uploadSessionLifetimeMs = 3600 * 1000;

export type ListResult = { prefixes: string[]; items: { name: string; bucket: string }[]; nextPageToken?: string };
export type ResumableState = { status: "active" | "final"; received: number; resource?: WireObjectResource };

export function createStorageService(deps: StorageServiceDependencies) {
  const { db, blobs, limits } = deps;

  const checkBucket = (bucket: string) => {
    if (bucket !== deps.bucket) throw new StorageFailure(404, "storage/bucket-not-found");
  };

  const toWire = (row: ObjectRow): WireObjectResource => {
    const optional = <K extends string>(key: K, value: string | null) => (value === null ? {} : { [key]: value });
    return {
      kind: "storage#object",
      id: `${row.bucket}/${row.path}/${row.generation}`,
      bucket: row.bucket,
      name: row.path,
      generation: row.generation,
      metageneration: String(row.metageneration),
      size: String(row.size),
      contentType: row.content_type,
      timeCreated: row.created_at,
      updated: row.updated_at,
      md5Hash: row.md5_hash,
      storageClass: "STANDARD",
      ...optional("cacheControl", row.cache_control),
      ...optional("contentDisposition", row.content_disposition),
      ...optional("contentEncoding", row.content_encoding),
      ...optional("contentLanguage", row.content_language),
      ...(row.custom_metadata ? { metadata: JSON.parse(row.custom_metadata) as Record<string, string> } : {}),
      downloadTokens: row.download_tokens,
    };
  };

  /** Keeps the profile-photo link on the user row in step with `users/<uid>/avatar`. */
  const setUserImage = async (uid: string, row: ObjectRow | null) => {
    const image = row ? downloadUrl(row.bucket, row.path, row.download_tokens.split(",")[0]!, deps.siteUrl) : null;
    await db.updateTable("user").set({ image }).where("id", "=", uid).execute();
  };

  /** Refuses a write that would leave less than the floor free on the local disk. */
  async function checkFreeSpace(bytes: number) {
    if (!blobs.freeBytes || limits.minFreeBytes <= 0) return;
    if ((await blobs.freeBytes()) - bytes < limits.minFreeBytes) throw storageFull();
  }

  /** Writes bytes; a full disk is the protocol's quota-exceeded (402), which clients do not retry. */
  async function putBlob(key: string, bytes: Buffer, contentType: string) {
    await checkFreeSpace(bytes.length);
    try {
      await blobs.put(key, bytes, contentType);
    } catch (error) {
      if (error instanceof BlobStoreFullError) throw storageFull();
      throw error;
    }
  }

  /** Deletes bytes whose removal committed; a failure leaves them in the trash for the sweeper. */
  async function discard(keys: string[]) {
    for (const key of keys) {
      try {
        await blobs.delete(key);
        await db.deleteFrom("storage_trash").where("blob_key", "=", key).execute();
      } catch (error) {
        deps.logger.warn({ err: error }, "storage: bytes left in the trash for the sweeper");
      }
    }
  }

  const openSince = () => new Date(Date.now() - uploadSessionLifetimeMs).toISOString();

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
    const usage = await usageOf(db, caller.uid, { openSince: openSince(), except: finishing });
    const replaced = existing?.owner_id === caller.uid ? quotaSizeOf(existing) : 0;
    const added = image.bytes.length + (customMetadata ? Buffer.byteLength(customMetadata) : 0);
    if (usage - replaced + added > limits.userQuotaBytes) throw new StorageFailure(402, "storage/quota-exceeded");
    const now = new Date().toISOString();
    const blobKey = `objects/${randomBytes(16).toString("hex")}`;
    await putBlob(blobKey, image.bytes, image.contentType);
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
    if (displaced) await discard([displaced.blob_key]);
    if (avatar) await setUserImage(caller.uid, row);
    return toWire(row);
  }

  async function existingObject(bucket: string, path: string) {
    const row = await findObject(db, bucket, path);
    if (!row) throw new StorageFailure(404, "storage/object-not-found");
    return row;
  }

  return {
    bucket: deps.bucket,
    limits,

    /** A one-request upload (multipart or raw). */
    async upload(caller: Caller | null, bucket: string, path: string, bytes: Buffer, metadata: MetadataInput) {
      checkBucket(bucket);
      checkPath(path);
      return store(requireAccess(caller, path), bucket, path, bytes, metadata);
    },

    async getMetadata(caller: Caller | null, bucket: string, path: string) {
      checkBucket(bucket);
      checkPath(path);
      requireAccess(caller, path);
      return toWire(await existingObject(bucket, path));
    },

    /** The bytes: with one of the file's download tokens, or for a caller the rules let read the path. */
    async download(caller: Caller | null, bucket: string, path: string, token: string | undefined) {
      checkBucket(bucket);
      checkPath(path);
      if (token === undefined) requireAccess(caller, path);
      const row = await existingObject(bucket, path);
      // A wrong token answers as a missing file does: a link never tells whether something else is stored there.
      if (token !== undefined && !row.download_tokens.split(",").includes(token)) {
        throw new StorageFailure(404, "storage/object-not-found");
      }
      const bytes = await blobs.get(row.blob_key);
      if (!bytes) throw new StorageFailure(404, "storage/object-not-found");
      return { resource: toWire(row), bytes, publicFile: !path.startsWith("users/") };
    },

    async updateMetadata(caller: Caller | null, bucket: string, path: string, patch: MetadataInput) {
      checkBucket(bucket);
      checkPath(path);
      requireAccess(caller, path);
      const row = await existingObject(bucket, path);
      const pick = <T>(value: T | null | undefined, current: T | null) => (value === undefined ? current : value);
      const custom =
        patch.metadata === undefined
          ? row.custom_metadata
          : patch.metadata === null
            ? null
            : storedCustomMetadata({ ...(row.custom_metadata ? JSON.parse(row.custom_metadata) : {}), ...patch.metadata });
      const grown = (custom ? Buffer.byteLength(custom) : 0) - (row.custom_metadata ? Buffer.byteLength(row.custom_metadata) : 0);
      if (grown > 0 && row.owner_id) {
        if ((await usageOf(db, row.owner_id, { openSince: openSince() })) + grown > limits.userQuotaBytes) {
          throw new StorageFailure(402, "storage/quota-exceeded");
        }
      }
      const updated: ObjectRow = {
        ...row,
        cache_control: pick(patch.cacheControl, row.cache_control),
        content_disposition: pick(patch.contentDisposition, row.content_disposition),
        content_encoding: pick(patch.contentEncoding, row.content_encoding),
        content_language: pick(patch.contentLanguage, row.content_language),
        custom_metadata: custom,
        metageneration: row.metageneration + 1,
        updated_at: new Date().toISOString(),
      };
      await updateObject(db, updated);
      return toWire(updated);
    },

    async remove(caller: Caller | null, bucket: string, path: string) {
      checkBucket(bucket);
      checkPath(path);
      const who = requireAccess(caller, path);
      const removed = await db.transaction().execute((trx) => removeObject(trx, bucket, path));
      if (!removed) throw new StorageFailure(404, "storage/object-not-found");
      await discard([removed.blob_key]);
      if (path === avatarPath(who.uid)) await setUserImage(who.uid, null);
    },

    /** Objects and sub-folders under a folder the caller may read, in pages. */
    async list(
      caller: Caller | null,
      bucket: string,
      query: { prefix: string; delimiter?: string; pageToken?: string; maxResults: number },
    ): Promise<ListResult> {
      checkBucket(bucket);
      if (query.prefix === "" || query.prefix === "/") throw new StorageFailure(400, "storage/invalid-root-operation");
      requireAccess(caller, query.prefix);
      const after = query.pageToken ? Buffer.from(query.pageToken, "base64url").toString("utf8") : "";
      const entries: { key: string; prefix: boolean }[] = [];
      for (const path of await pathsUnder(db, bucket, query.prefix)) {
        const rest = path.slice(query.prefix.length);
        const cut = query.delimiter ? rest.indexOf(query.delimiter) : -1;
        const key = cut === -1 ? path : query.prefix + rest.slice(0, cut + query.delimiter!.length);
        if (entries.at(-1)?.key !== key) entries.push({ key, prefix: cut !== -1 });
      }
      const remaining = entries.filter((entry) => Buffer.compare(Buffer.from(entry.key), Buffer.from(after)) > 0);
      const page = remaining.slice(0, query.maxResults);
      const last = page.at(-1);
      return {
        prefixes: page.filter((entry) => entry.prefix).map((entry) => entry.key),
        items: page.filter((entry) => !entry.prefix).map((entry) => ({ name: entry.key, bucket })),
        ...(remaining.length > page.length && last ? { nextPageToken: Buffer.from(last.key).toString("base64url") } : {}),
      };
    },

    /**
     * Starts a resumable upload; its chunks go to the blob driver, so any instance can take the next one. An
     * account holds at most `maxOpenUploads` unfinished ones, and a declared size must fit its quota.
     */
    async startResumable(caller: Caller | null, bucket: string, path: string, metadata: MetadataInput, size?: number) {
      checkBucket(bucket);
      checkPath(path);
      const who = requireAccess(caller, path);
      if (size !== undefined && size > limits.maxUploadBytes) throw new StorageFailure(403, "storage/unauthorized", "too-large");
      if (metadata.metadata) storedCustomMetadata(metadata.metadata);
      const since = openSince();
      const open = await db
        .selectFrom("storage_uploads")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .where("owner_id", "=", who.uid)
        .where("created_at", ">=", since)
        .executeTakeFirst();
      if (Number(open?.count ?? 0) >= limits.maxOpenUploads) throw new StorageFailure(402, "storage/quota-exceeded", "too-many-uploads");
      if (size !== undefined && (await usageOf(db, who.uid, { openSince: since })) + size > limits.userQuotaBytes) {
        throw new StorageFailure(402, "storage/quota-exceeded");
      }
      const id = randomBytes(16).toString("hex");
      await db
        .insertInto("storage_uploads")
        .values({
          id,
          bucket,
          path,
          owner_id: who.uid,
          metadata: JSON.stringify(metadata),
          total_size: size ?? null,
          received: 0,
          chunks: 0,
          created_at: new Date().toISOString(),
        })
        .execute();
      return id;
    },

    /**
     * One step of a resumable upload: `query`, `upload` (a chunk at `offset`), `finalize`, or `cancel`. A chunk
     * first claims its place in the row (compare-and-set on the chunk count) and only then writes its bytes, so
     * of two chunks raced at one offset exactly one is taken and the other is told where the upload stands.
     */
    async continueResumable(
      caller: Caller | null,
      id: string,
      step: { commands: string[]; offset?: number; chunk?: Buffer },
    ): Promise<ResumableState> {
      const session = await db.selectFrom("storage_uploads").selectAll().where("id", "=", id).executeTakeFirst();
      if (!session || session.created_at < openSince()) throw new StorageFailure(404, "storage/object-not-found");
      if (!caller) throw new StorageFailure(401, "storage/unauthenticated");
      if (caller.uid !== session.owner_id) throw new StorageFailure(403, "storage/unauthorized");
      let received = Number(session.received);
      let chunks = session.chunks;
      if (step.commands.includes("cancel")) {
        await dropUpload(id, chunks);
        return { status: "final", received };
      }
      if (step.commands.includes("upload") && step.chunk && step.chunk.length > 0) {
        const chunk = step.chunk;
        if (step.offset !== received) throw offsetMismatch(received);
        if (received + chunk.length > limits.maxUploadBytes) {
          await dropUpload(id, chunks);
          throw new StorageFailure(403, "storage/unauthorized", "too-large");
        }
        if ((await usageOf(db, caller.uid, { openSince: openSince() })) + chunk.length > limits.userQuotaBytes) {
          await dropUpload(id, chunks);
          throw new StorageFailure(402, "storage/quota-exceeded");
        }
        const claimed = await db
          .updateTable("storage_uploads")
          .set({ received: received + chunk.length, chunks: chunks + 1 })
          .where("id", "=", id)
          .where("chunks", "=", chunks)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) throw offsetMismatch(await receivedSoFar(id));
        try {
          await putBlob(`uploads/${id}/${chunks}`, chunk, "application/octet-stream");
        } catch (error) {
          // Give the place back, so the client may send this chunk again.
          await db
            .updateTable("storage_uploads")
            .set({ received, chunks })
            .where("id", "=", id)
            .where("chunks", "=", chunks + 1)
            .execute();
          throw error;
        }
        received += chunk.length;
        chunks += 1;
      }
      if (!step.commands.includes("finalize")) return { status: "active", received };
      const parts: Buffer[] = [];
      for (const key of chunkKeys(id, chunks)) {
        const part = await blobs.get(key);
        if (!part) {
          // A chunk still being written, or lost to a crash between its claim and its bytes: start again.
          await dropUpload(id, chunks);
          throw offsetMismatch(0);
        }
        parts.push(part);
      }
      try {
        const metadata = JSON.parse(session.metadata) as MetadataInput;
        const resource = await store(caller, session.bucket, session.path, Buffer.concat(parts), metadata, id);
        return { status: "final", received, resource };
      } finally {
        await dropUpload(id, chunks);
      }
    },
  };

  /** The answer to a chunk at the wrong offset (or one that lost a race): 400, with where the upload stands. */
  function offsetMismatch(received: number) {
    return new StorageFailure(400, "storage/invalid-argument", "upload-offset", {
      "X-Goog-Upload-Status": "active",
      "X-Goog-Upload-Size-Received": String(received),
    });
  }

  async function receivedSoFar(id: string) {
    const row = await db.selectFrom("storage_uploads").select("received").where("id", "=", id).executeTakeFirst();
    return Number(row?.received ?? 0);
  }

  /** Ends an upload: its row and its chunks' keys leave together, then the chunks' bytes go. */
  async function dropUpload(id: string, chunks: number) {
    const keys = chunkKeys(id, chunks);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom("storage_uploads").where("id", "=", id).execute();
      await trashBlobs(trx, keys);
    });
    await discard(keys);
  }
}

export type StorageService = ReturnType<typeof createStorageService>;

function storageFull() {
  return new StorageFailure(402, "storage/quota-exceeded", "storage-full");
}
