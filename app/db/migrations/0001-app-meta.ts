import type { Kysely } from "kysely";

// A small key/value table; the first row records when this database was created.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("app_meta")
    .addColumn("key", "varchar(100)", (col) => col.primaryKey())
    .addColumn("value", "text", (col) => col.notNull())
    .execute();
  await db
    .insertInto("app_meta" as never)
    .values({ key: "created_at", value: new Date().toISOString() } as never)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("app_meta").execute();
}
