import fs from "node:fs/promises";
import path from "node:path";

/**
 * Where the bytes of stored objects live. Keys are made by the server (`objects/<random>`,
 * `uploads/<id>/<n>`), never taken from a request, so a driver never sees a user's path.
 */
export interface BlobStore {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The whole blob, or null when it is missing. */
  get(key: string): Promise<Buffer | null>;
  /** Deleting a missing blob is not an error. */
  delete(key: string): Promise<void>;
}

const safeKey = /^[a-z]+(\/[A-Za-z0-9_-]+)+$/;

function checkKey(key: string) {
  if (!safeKey.test(key)) throw new Error(`unexpected blob key: ${key}`);
}

/** The default driver: files under `<dataDir>/storage`, written to a temporary name first and renamed. */
export function localBlobStore(dataDir: string): BlobStore {
  const root = path.resolve(dataDir, "storage");
  const fileOf = (key: string) => {
    checkKey(key);
    return path.join(root, ...key.split("/"));
  };
  return {
    async put(key, bytes) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      await fs.writeFile(temporary, bytes);
      await fs.rename(temporary, file);
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
  };
}

export { checkKey as checkBlobKey };
