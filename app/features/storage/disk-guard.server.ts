import fs from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import { freeBytesAt } from "~/services/disk-space.server";

/**
 * DATA_DIR's disk, watched for the storage (docs/storage.md, "A full disk"). Uploads stop at a floor of free
 * space; should something else fill the disk to the last byte anyway, a reserve file kept in DATA_DIR is given
 * back, so the database still has room for deletions (users can free space), sign-ups and analytics. The
 * reserve is made again once the disk has room. /readyz reports the state: "low" once a full-size upload
 * would be refused, "full" while the disk is out of room or running on the reserve.
 */
export interface DiskReport {
  disk: "ok" | "low" | "full";
  diskFreeBytes: number;
}

export interface DiskGuardOptions {
  directory: string;
  /** Free space under which uploads may be refused (the floor plus one full-size upload). */
  lowBytes: number;
  /** The reserve file's size; 0 keeps none. */
  reserveBytes: number;
  logger: Pick<Logger, "warn" | "info">;
}

/** Below this, even the database's small writes may fail. */
const outOfRoomBytes = 1024 * 1024;

export function createDiskGuard({ directory, lowBytes, reserveBytes, logger }: DiskGuardOptions) {
  const reserveFile = path.join(directory, "storage-reserve.bin");
  let runningOnReserve = false;

  const reserveExists = () => fs.stat(reserveFile).then((stats) => stats.size >= reserveBytes, () => false);

  let pending: Promise<DiskReport> | undefined;
  /** The disk's state now, giving the reserve back or making it again as needed (one check at a time). */
  const check = (): Promise<DiskReport> => (pending ??= measure().finally(() => (pending = undefined)));

  async function measure(): Promise<DiskReport> {
    let free = await freeBytesAt(directory);
    if (reserveBytes > 0) {
      if (free < outOfRoomBytes && (await reserveExists())) {
        await fs.rm(reserveFile, { force: true });
        runningOnReserve = true;
        logger.warn({ diskFreeBytes: free, directory }, "disk full: the reserve was given back so deletions still work");
        free = await freeBytesAt(directory);
      } else if (free > lowBytes + reserveBytes && !(await reserveExists())) {
        // DATA_DIR is made on first use only with SQLite; on PostgreSQL it may not exist yet (the file store's home).
        await fs.mkdir(directory, { recursive: true });
        await fs.writeFile(reserveFile, Buffer.alloc(reserveBytes));
        if (runningOnReserve) logger.info({ directory }, "disk has room again: the reserve is back");
        runningOnReserve = false;
        free = await freeBytesAt(directory);
      }
    }
    return { disk: runningOnReserve || free < outOfRoomBytes ? "full" : free < lowBytes ? "low" : "ok", diskFreeBytes: free };
  }

  /** Checks now and every `intervalMs`; a failed check is logged and tried again. */
  function start(intervalMs: number): () => void {
    const run = () => void check().catch((error: unknown) => logger.warn({ err: error }, "disk check failed"));
    run();
    const timer = setInterval(run, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  return { check, start };
}

export type DiskGuard = ReturnType<typeof createDiskGuard>;
