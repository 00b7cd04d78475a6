import type { Kysely } from "kysely";

// The site's roles (PRODUCT §3, §7): every account is a `user`; `editor` may write the developer blog, upload
// under `blog/` and run the wishing well. Better Auth reads and writes the column as an additional user field.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("user")
    .addColumn("role", "text", (c) => c.notNull().defaultTo("user"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("user").dropColumn("role").execute();
}
