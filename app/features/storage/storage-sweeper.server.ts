import type { Kysely } from "kysely";
import type { Logger } from "pino";
import type { Database } from "~/db/schema";
import type { BlobStore } from "./blob-store.server";
import { chunkKeys, trashBlobs } from "./object-rows.server";

/**
 * Keeps the blob driver in step with the rows, whatever a crash or a race left behind:
 * - the trash: bytes whose row is gone (deleted, replaced, an account deleted) are removed after the commit;
 * - unfinished resumable uploads older than their lifetime are dropped with their chunks;
 * - orphans: blobs no row points at (a kill -9 between writing the bytes and the row), once older than a grace
 *   period that no upload in flight outlasts; and the temporary files of local writes cut short.
 * Runs every `intervalMs` (and shortly after start-up); each pass logs what it removed.
 */
export interface SweeperDependencies {
  db: Kysely<Database>;
  blobs: BlobStore;
  logger: Pick<Logger, "info" | "warn">;
  /** Unfinished resumable uploads are dropped this long after they started. */
  uploadLifetimeMs: number;
  /** Unreferenced bytes and temporary files are left alone this long (uploads in flight). */
  orphanGraceMs: number;
  now?: () => number;
}

export interface SweepReport {
  trash: number;
  expiredUploads: number;
  orphans: number;
  temporaries: number;
}

export function createStorageSweeper(deps: SweeperDependencies) {
  const { db, blobs } = deps;
  const now = deps.now ?? Date.now;

  /** Removes the bytes in the trash (committed removals only: an open transaction's rows are not visible). */
  async function emptyTrash(): Promise<number> {
    const rows = await db.selectFrom("storage_trash").select("blob_key").execute();
    for (const { blob_key } of rows) {
      await blobs.delete(blob_key);
      await db.deleteFrom("storage_trash").where("blob_key", "=", blob_key).execute();
    }
    return rows.length;
  }

  /** Drops the unfinished uploads past their lifetime: rows and chunk keys go to the trash together. */
  async function dropExpiredUploads(): Promise<number> {
    const cutoff = new Date(now() - deps.uploadLifetimeMs).toISOString();
    const expired = await db.selectFrom("storage_uploads").select(["id", "chunks"]).where("created_at", "<", cutoff).execute();
    for (const upload of expired) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("storage_uploads").where("id", "=", upload.id).execute();
        await trashBlobs(trx, chunkKeys(upload.id, upload.chunks));
      });
    }
    return expired.length;
  }

  /** Bytes no row, no upload and no trash entry points at, older than the grace period. */
  async function removeOrphans(): Promise<number> {
    const before = now() - deps.orphanGraceMs;
    const [objects, uploads] = await Promise.all([blobs.list("objects"), blobs.list("uploads")]);
    const candidates = [...objects, ...uploads].filter((entry) => entry.modified < before);
    if (candidates.length === 0) return 0;
    const referenced = new Set(
      (await db.selectFrom("storage_objects").select("blob_key").execute()).map((row) => row.blob_key),
    );
    for (const row of await db.selectFrom("storage_trash").select("blob_key").execute()) referenced.add(row.blob_key);
    const sessions = new Set((await db.selectFrom("storage_uploads").select("id").execute()).map((row) => row.id));
    let removed = 0;
    for (const { key } of candidates) {
      const session = key.startsWith("uploads/") ? key.split("/")[1]! : undefined;
      if (session ? sessions.has(session) : referenced.has(key)) continue;
      await blobs.delete(key);
      removed++;
    }
    return removed;
  }

  async function sweep(): Promise<SweepReport> {
    const expiredUploads = await dropExpiredUploads();
    const trash = await emptyTrash();
    const orphans = await removeOrphans();
    const temporaries = (await blobs.removeTemporaries?.(now() - deps.orphanGraceMs)) ?? 0;
    const report = { trash, expiredUploads, orphans, temporaries };
    if (trash + expiredUploads + orphans + temporaries > 0) deps.logger.info({ storageSweep: report }, "storage sweep removed unused bytes");
    return report;
  }

  /** Runs `sweep` now and then; a failed pass is logged and tried again at the next. */
  function start(intervalMs: number, firstAfterMs = 5_000): () => void {
    let timer: NodeJS.Timeout | undefined;
    const run = (delay: number) => {
      timer = setTimeout(() => {
        sweep()
          .catch((error: unknown) => deps.logger.warn({ err: error }, "storage sweep failed"))
          .finally(() => run(intervalMs));
      }, delay);
      timer.unref();
    };
    run(firstAfterMs);
    return () => clearTimeout(timer);
  }

  return { sweep, emptyTrash, start };
}

export type StorageSweeper = ReturnType<typeof createStorageSweeper>;
