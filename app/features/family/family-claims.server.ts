import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { familyOf } from "./family-store.server";

/**
 * The family as the app sees it (PRODUCT §5, Families): the `family` claim of a parent's ID token and userinfo,
 * and the body of `GET /api/family`.
 */
export interface FamilyClaim {
  id: string;
  name: string;
  role: "owner" | "parent";
}

export async function familyClaim(db: Kysely<Database>, userId: string): Promise<FamilyClaim | null> {
  const row = await db
    .selectFrom("family_member")
    .innerJoin("family", "family.id", "family_member.family_id")
    .select(["family.id", "family.name", "family_member.role"])
    .where("family_member.user_id", "=", userId)
    .executeTakeFirst();
  return row ? { id: row.id, name: row.name, role: row.role as FamilyClaim["role"] } : null;
}

/** The family for a parent's app: its parents (name, role, address) and children, or null before there is one. */
export async function familyForApp(db: Kysely<Database>, userId: string) {
  const family = await familyOf(db, userId);
  if (!family) return null;
  return {
    id: family.id,
    name: family.name,
    role: family.role,
    parents: family.parents.map(({ id, name, email, role }) => ({ id, name, email, role })),
    children: family.children,
  };
}
