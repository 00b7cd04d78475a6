import { sql, type Kysely, type Selectable, type Transaction } from "kysely";
import type { Database, StorageObjectsTable } from "~/db/schema";

/** The storage tables, read and written in one place (SQLite and PostgreSQL alike). */
type Db = Kysely<Database> | Transaction<Database>;
export type ObjectRow = Selectable<StorageObjectsTable>;

export function findObject(db: Db, bucket: string, path: string): Promise<ObjectRow | undefined> {
  return db.selectFrom("storage_objects").selectAll().where("bucket", "=", bucket).where("path", "=", path).executeTakeFirst();
}

/** Inserts or replaces the row of (bucket, path). */
export async function saveObject(db: Db, row: ObjectRow): Promise<void> {
  const { bucket: _bucket, path: _path, created_at: _created, ...changes } = row;
  await db
    .insertInto("storage_objects")
    .values(row)
    .onConflict((conflict) => conflict.columns(["bucket", "path"]).doUpdateSet(changes))
    .execute();
}

export async function removeObject(db: Db, bucket: string, path: string): Promise<void> {
  await db.deleteFrom("storage_objects").where("bucket", "=", bucket).where("path", "=", path).execute();
}

/** Bytes stored by one account, every bucket together (the per-user quota). */
export async function usageOf(db: Db, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom("storage_objects")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("size"), sql<number>`0`).as("total"))
    .where("owner_id", "=", ownerId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
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
