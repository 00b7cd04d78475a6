import { randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { WireObjectResource } from "./file-metadata";
import { storedCustomMetadata, type MetadataInput } from "./metadata-input.server";
import { chunkKeys, trashBlobs, usageOf } from "./object-rows.server";
import { checkPath, requireAccess, StorageFailure, type Caller } from "./storage-rules.server";

/**
 * Resumable uploads of the v0 protocol (`start`, then `upload` chunks, `finalize`, `query`, `cancel`). Chunks sit in
 * the blob driver as `uploads/<id>/<n>`, so any instance can take the next one; their bytes count against the
 * owner's quota until the upload ends, an account holds at most `maxOpenUploads` at once, and an upload left
 * unfinished for an hour is over (the sweeper drops it with its chunks).
 */
export interface ResumableDependencies {
  db: Kysely<Database>;
  limits: { maxUploadBytes: number; userQuotaBytes: number; maxOpenUploads: number };
  checkBucket(bucket: string): void;
  /** Reads a chunk back from the driver (null when missing). */
  getBlob(key: string): Promise<Buffer | null>;
  /** Writes bytes to the driver (the disk floor applies). */
  putBlob(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** Deletes bytes whose removal committed. */
  discard(keys: string[]): Promise<void>;
  /** Stores the finished upload as an image, like a one-request upload. */
  store(caller: Caller, bucket: string, path: string, bytes: Buffer, metadata: MetadataInput, finishing: string): Promise<WireObjectResource>;
}

/** Resumable uploads left unfinished this long are over (a 5 MB upload takes minutes on a slow phone). */
export const uploadSessionLifetimeMs = 3600 * 1000;

/** Uploads started since this moment are still open. */
export const openSince = () => new Date(Date.now() - uploadSessionLifetimeMs).toISOString();

export type ResumableState = { status: "active" | "final"; received: number; resource?: WireObjectResource };

export function createResumableUploads({ db, limits, checkBucket, getBlob, putBlob, discard, store }: ResumableDependencies) {
  return {
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
        const part = await getBlob(key);
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
