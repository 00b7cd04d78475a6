import fs from "node:fs/promises";
import path from "node:path";

/**
 * Free space on the file system that holds a folder (DATA_DIR: the SQLite database and the local file store),
 * and the error codes that mean that file system is full. Uploads stop at a floor of free space so the
 * database keeps room for deletions, sign-ups and analytics; /readyz reports the same figure.
 */
export async function freeBytesAt(directory: string): Promise<number> {
  let folder = path.resolve(directory);
  for (;;) {
    try {
      const stats = await fs.statfs(folder);
      // bavail: what an unprivileged process may still use (root's reserve excluded).
      return Number(stats.bavail) * Number(stats.bsize);
    } catch (error) {
      // A folder not made yet (DATA_DIR with PostgreSQL) lives on its nearest existing parent's disk.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || path.dirname(folder) === folder) throw error;
      folder = path.dirname(folder);
    }
  }
}

const fullCodes = new Set(["ENOSPC", "EDQUOT", "SQLITE_FULL"]);

/** A write failed because the disk (or the user's disk quota) is full. */
export function isDiskFull(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && fullCodes.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
