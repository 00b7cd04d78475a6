import type { UserDataHandler } from "~/features/auth/user-data-hooks.server";
import type { BlobStore } from "./blob-store.server";
import { findObject, objectsInUserFolder, removeObject } from "./object-rows.server";
import { avatarPath, downloadUrl, userPrefix } from "./storage-paths";

/**
 * Files follow their account: deleting a user deletes everything under `users/<uid>/` (rows, then bytes,
 * inside the deletion's transaction: a failure stops the deletion instead of leaving a child's photo behind);
 * blog images stay, counted against nobody. A guest who signs in to an existing account brings their files
 * along (a guest upgraded in place keeps its uid, so nothing moves). The copy of one's data lists the files.
 */
export function storageUserDataHandler(blobs: BlobStore, siteUrl: string): UserDataHandler {
  return {
    name: "storage",
    /** The list of the account's files (names, sizes, types, times), not their bytes. */
    async exportUserData(db, uid) {
      const rows = await objectsInUserFolder(db, uid);
      return rows
        .map((row) => ({ path: row.path, size: Number(row.size), contentType: row.content_type, createdAt: row.created_at, updatedAt: row.updated_at }))
        .sort((a, b) => a.path.localeCompare(b.path));
    },
    async deleteUserData(db, uid) {
      const rows = await objectsInUserFolder(db, uid);
      for (const row of rows) await removeObject(db, row.bucket, row.path);
      await db.updateTable("storage_objects").set({ owner_id: null }).where("owner_id", "=", uid).execute();
      const uploads = await db.selectFrom("storage_uploads").select(["id", "chunks"]).where("owner_id", "=", uid).execute();
      await db.deleteFrom("storage_uploads").where("owner_id", "=", uid).execute();
      for (const row of rows) await blobs.delete(row.blob_key);
      for (const upload of uploads) {
        for (let index = 0; index < upload.chunks; index++) await blobs.delete(`uploads/${upload.id}/${index}`);
      }
    },
    async moveUserData(db, fromUid, toUid) {
      const dropped: string[] = [];
      for (const row of await objectsInUserFolder(db, fromUid)) {
        const target = userPrefix(toUid) + row.path.slice(userPrefix(fromUid).length);
        if (await findObject(db, row.bucket, target)) {
          // The account's own file wins over the guest's.
          await removeObject(db, row.bucket, row.path);
          dropped.push(row.blob_key);
          continue;
        }
        await db
          .updateTable("storage_objects")
          .set({ path: target })
          .where("bucket", "=", row.bucket)
          .where("path", "=", row.path)
          .execute();
        if (target === avatarPath(toUid)) {
          const image = downloadUrl(row.bucket, target, row.download_tokens.split(",")[0]!, siteUrl);
          await db.updateTable("user").set({ image }).where("id", "=", toUid).execute();
        }
      }
      await db.updateTable("storage_objects").set({ owner_id: toUid }).where("owner_id", "=", fromUid).execute();
      await db.updateTable("storage_uploads").set({ owner_id: toUid }).where("owner_id", "=", fromUid).execute();
      for (const key of dropped) await blobs.delete(key);
    },
  };
}
