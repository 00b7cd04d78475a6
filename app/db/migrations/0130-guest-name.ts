import { sql, type Kysely } from "kysely";

// Guests were named 訪客用戶 (mainland usage); Taiwan says 訪客 (PRODUCT §5). Guests made before the change are
// renamed too, so every guest reads the same in the bar. Only the exact old default of a guest changes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await (db as Kysely<{ user: { name: string; isAnonymous: boolean | null } }>)
    .updateTable("user")
    .set({ name: "訪客" })
    .where("name", "=", "訪客用戶")
    .where(sql.ref("isAnonymous"), "=", sql.lit(true)) // TRUE is 1 in SQLite, a boolean in PostgreSQL
    .execute();
}

// The old name is not brought back: it was the wording being replaced, and a guest who chose 訪客 is not told apart.
export async function down(): Promise<void> {}
