import type { DatabaseHandle } from "~/db/connection.server";

/**
 * Who is an editor. The first editors come from EDITOR_EMAILS — applied only to verified addresses, so
 * signing up with an editor's email grants nothing until its owner opens the verification link — and
 * from `npm run user:role -- <email> editor`.
 */
export async function promoteEditors(database: DatabaseHandle, editorEmails: readonly string[]): Promise<number> {
  if (editorEmails.length === 0) return 0;
  const result = await database.db
    .updateTable("user")
    .set({ role: "editor" })
    .where("email", "in", [...editorEmails])
    .where("emailVerified", "=", database.dialect === "sqlite" ? 1 : true)
    .where("role", "=", "user")
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
