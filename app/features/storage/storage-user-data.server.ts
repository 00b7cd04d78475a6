import type { UserDataHandler } from "~/features/auth/index.server";
import { chunkKeys, findObject, objectsInUserFolder, removeObject, trashBlobs } from "./object-rows.server";
import { avatarPath, downloadUrl, userPrefix } from "./storage-paths";
import type { StorageSweeper } from "./storage-sweeper.server";

/**
 * Files follow their account: deleting a user deletes everything under `users/<uid>/`; blog images stay,
 * counted against nobody. Inside the deletion's transaction the rows go and their bytes enter the trash; the
 * bytes are removed only after the commit (`afterCommit`, or the sweeper after a crash), so a failed commit or a
 * kill -9 never leaves a row whose bytes are gone. A guest who signs in to an existing account brings their
 * files along (a guest upgraded in place keeps its uid, so nothing moves). The copy of one's data lists the files.
 */
export function storageUserDataHandler(siteUrl: string, sweeper: Pick<StorageSweeper, "emptyTrash">): UserDataHandler {
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
      for (const row of await objectsInUserFolder(db, uid)) await removeObject(db, row.bucket, row.path);
      await db.updateTable("storage_objects").set({ owner_id: null }).where("owner_id", "=", uid).execute();
      const uploads = await db.selectFrom("storage_uploads").select(["id", "chunks"]).where("owner_id", "=", uid).execute();
      await db.deleteFrom("storage_uploads").where("owner_id", "=", uid).execute();
      await trashBlobs(db, uploads.flatMap((upload) => chunkKeys(upload.id, upload.chunks)));
    },
    async moveUserData(db, fromUid, toUid) {
      for (const row of await objectsInUserFolder(db, fromUid)) {
        const target = userPrefix(toUid) + row.path.slice(userPrefix(fromUid).length);
        if (await findObject(db, row.bucket, target)) {
          // The account's own file wins over the guest's.
          await removeObject(db, row.bucket, row.path);
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
    },
    async afterCommit() {
      await sweeper.emptyTrash();
    },
  };
}
