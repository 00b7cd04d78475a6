import type { DatabaseHandle } from "~/db/connection.server";
import { isRole } from "./roles";

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

/** Sets one account's role by email; answers how many accounts changed (0: no such account). */
export async function setUserRole(database: DatabaseHandle, email: string, role: string): Promise<number> {
  if (!isRole(role)) throw new Error(`角色必須是 user 或 editor，收到「${role}」`);
  const result = await database.db
    .updateTable("user")
    .set({ role })
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
