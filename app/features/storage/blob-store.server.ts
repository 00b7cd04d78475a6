import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { freeBytesAt, isDiskFull } from "~/services/disk-space.server";

/**
 * Where the bytes of stored objects live. Keys are made by the server (`objects/<random>`,
 * `uploads/<id>/<n>`), never taken from a request, so a driver never sees a user's path.
 */
export interface BlobStore {
  /** Throws BlobStoreFullError when the disk is full (a partial write leaves nothing behind). */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The whole blob, or null when it is missing. */
  get(key: string): Promise<Buffer | null>;
  /** Deleting a missing blob is not an error. */
  delete(key: string): Promise<void>;
  /** Every blob under a top folder, with its last change (ms since the epoch), for the sweeper. */
  list(folder: "objects" | "uploads"): Promise<BlobEntry[]>;
  /** Local disk only: bytes still free on its file system (the upload floor). */
  freeBytes?(): Promise<number>;
  /** Local disk only: removes temporary files of writes a crash cut short, older than `before`; how many. */
  removeTemporaries?(before: number): Promise<number>;
}

export interface BlobEntry {
  key: string;
  modified: number;
}

/** The driver's disk is full: answered as the protocol's quota-exceeded, never as a 500 a client retries. */
export class BlobStoreFullError extends Error {
  override name = "BlobStoreFullError";
}

const safeKey = /^[a-z]+(\/[A-Za-z0-9_-]+)+$/;
const temporarySuffix = ".tmp";

function checkKey(key: string) {
  if (!safeKey.test(key)) throw new Error(`unexpected blob key: ${key}`);
}

/** Files under a folder, recursively (a missing folder has none). */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * The default driver: files under `<dataDir>/storage`, each written to a temporary name of its own (so two
 * writes never share one) and renamed into place; a failed write removes its temporary file.
 */
export function localBlobStore(dataDir: string): BlobStore {
  const root = path.resolve(dataDir, "storage");
  const fileOf = (key: string) => {
    checkKey(key);
    return path.join(root, ...key.split("/"));
  };
  return {
    async put(key, bytes) {
      const file = fileOf(key);
      const temporary = `${file}.${randomBytes(6).toString("hex")}${temporarySuffix}`;
      try {
        await fs.mkdir(path.dirname(file), { recursive: true });
        await fs.writeFile(temporary, bytes);
        await fs.rename(temporary, file);
      } catch (error) {
        await fs.rm(temporary, { force: true });
        if (isDiskFull(error)) throw new BlobStoreFullError("the storage disk is full", { cause: error });
        throw error;
      }
    },
    async get(key) {
      try {
        return await fs.readFile(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      await fs.rm(fileOf(key), { force: true });
    },
    async list(folder) {
      const entries: BlobEntry[] = [];
      for (const file of await filesUnder(path.join(root, folder))) {
        const key = path.relative(root, file).split(path.sep).join("/");
        if (!safeKey.test(key)) continue;
        const stats = await fs.stat(file).catch(() => undefined);
        if (stats) entries.push({ key, modified: stats.mtimeMs });
      }
      return entries;
    },
    async freeBytes() {
      await fs.mkdir(root, { recursive: true });
      return freeBytesAt(root);
    },
    async removeTemporaries(before) {
      let removed = 0;
      for (const file of await filesUnder(root)) {
        if (!file.endsWith(temporarySuffix)) continue;
        const stats = await fs.stat(file).catch(() => undefined);
        if (stats && stats.mtimeMs < before) {
          await fs.rm(file, { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}

export { checkKey as checkBlobKey };
