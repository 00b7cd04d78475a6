import { PostgresAdapter, sql, type Kysely, type Selectable, type Transaction } from "kysely";
import type { Database, StorageObjectsTable } from "~/db/schema";
import { isUniqueViolation } from "~/services/dependency-errors.server";

/** The storage tables, read and written in one place (SQLite and PostgreSQL alike). */
type Db = Kysely<Database> | Transaction<Database>;
export type ObjectRow = Selectable<StorageObjectsTable>;

export function findObject(db: Db, bucket: string, path: string): Promise<ObjectRow | undefined> {
  return db.selectFrom("storage_objects").selectAll().where("bucket", "=", bucket).where("path", "=", path).executeTakeFirst();
}

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Inserts or replaces the row of (bucket, path) in one transaction that also puts the replaced bytes in the
 * trash, so parallel uploads to one name each hand the bytes they displaced to the trash (none is left
 * unreferenced) and the bytes go only once the new row is committed. Answers the displaced row, if any.
 */
export async function replaceObject(db: Kysely<Database>, row: ObjectRow): Promise<ObjectRow | undefined> {
  const { bucket, path, created_at: _created, ...changes } = row;
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        const previous = await trx
          .selectFrom("storage_objects")
          .selectAll()
          .where("bucket", "=", bucket)
          .where("path", "=", path)
          .$if(isPostgres(db), (query) => query.forUpdate())
          .executeTakeFirst();
        if (previous) {
          await trx.updateTable("storage_objects").set(changes).where("bucket", "=", bucket).where("path", "=", path).execute();
          await trashBlobs(trx, [previous.blob_key]);
        } else {
          await trx.insertInto("storage_objects").values(row).execute();
        }
        return previous;
      });
    } catch (error) {
      // PostgreSQL: another upload inserted the first row of this path meanwhile; now there is a row to lock.
      if (attempt < 3 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

/** Saves a changed row in place (metadata updates: the bytes stay). */
export async function updateObject(db: Db, row: ObjectRow): Promise<void> {
  const { bucket, path, created_at: _created, ...changes } = row;
  await db.updateTable("storage_objects").set(changes).where("bucket", "=", bucket).where("path", "=", path).execute();
}

/** Deletes the row of (bucket, path) and puts its bytes in the trash; answers the row, if there was one. */
export async function removeObject(db: Db, bucket: string, path: string): Promise<ObjectRow | undefined> {
  const removed = await db.deleteFrom("storage_objects").where("bucket", "=", bucket).where("path", "=", path).returningAll().executeTakeFirst();
  if (removed) await trashBlobs(db, [removed.blob_key]);
  return removed;
}

/** Marks bytes for deletion once the surrounding transaction commits (the sweeper or `emptyTrash` removes them). */
export async function trashBlobs(db: Db, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const created_at = new Date().toISOString();
  await db
    .insertInto("storage_trash")
    .values(keys.map((blob_key) => ({ blob_key, created_at })))
    .onConflict((conflict) => conflict.column("blob_key").doNothing())
    .execute();
}

/** The blob keys of a resumable upload's chunks. */
export const chunkKeys = (id: string, chunks: number) => Array.from({ length: chunks }, (_, index) => `uploads/${id}/${index}`);

/**
 * What one account holds against its quota, every bucket together: its files' bytes, their custom metadata
 * (as stored, in bytes), and the bytes of its unfinished resumable uploads started since `openSince` — less
 * the upload being finalised (`except`).
 */
export async function usageOf(db: Db, ownerId: string, uploads: { openSince: string; except?: string }): Promise<number> {
  const objects = await db
    .selectFrom("storage_objects")
    .select(sql<number | string>`coalesce(sum(size + coalesce(octet_length(custom_metadata), 0)), 0)`.as("total"))
    .where("owner_id", "=", ownerId)
    .executeTakeFirst();
  const pending = await db
    .selectFrom("storage_uploads")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("received"), sql<number>`0`).as("total"))
    .where("owner_id", "=", ownerId)
    .where("created_at", ">=", uploads.openSince)
    .$if(uploads.except !== undefined, (query) => query.where("id", "!=", uploads.except!))
    .executeTakeFirst();
  return Number(objects?.total ?? 0) + Number(pending?.total ?? 0);
}

/** What one row counts against its owner's quota (its bytes and its custom metadata). */
export function quotaSizeOf(row: Pick<ObjectRow, "size" | "custom_metadata">): number {
  return Number(row.size) + (row.custom_metadata ? Buffer.byteLength(row.custom_metadata) : 0);
}

const likeEscaped = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/** Paths in a bucket starting with `prefix`, in byte order (the list order of the protocol). */
export async function pathsUnder(db: Db, bucket: string, prefix: string): Promise<string[]> {
  const rows = await db
    .selectFrom("storage_objects")
    .select("path")
    .where("bucket", "=", bucket)
    .where(sql<boolean>`path like ${`${likeEscaped(prefix)}%`} escape '\\'`)
    .execute();
  // SQLite's LIKE ignores ASCII case, and collations differ: compare exactly here.
  return rows
    .map((row) => row.path)
    .filter((path) => path.startsWith(prefix))
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** Every object under `users/<uid>/`, in any bucket. */
export function objectsInUserFolder(db: Db, uid: string): Promise<ObjectRow[]> {
  return db
    .selectFrom("storage_objects")
    .selectAll()
    .where(sql<boolean>`path like ${`users/${likeEscaped(uid)}/%`} escape '\\'`)
    .execute()
    .then((rows) => rows.filter((row) => row.path.startsWith(`users/${uid}/`)));
}
