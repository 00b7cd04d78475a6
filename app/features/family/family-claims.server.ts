import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { familyOf } from "./family-store.server";
import { givenEmail } from "~/features/auth";

/**
 * The family as the app sees it (PRODUCT §5, Families): the `family` claim of a parent's ID token and userinfo,
 * and the body of `GET /api/family`.
 */
export interface FamilyClaim {
  id: string;
  name: string;
  role: "owner" | "parent";
}

/**
 * A parent's account as the app's OpenID provider reads it, with the `family` claim, in one statement (the
 * provider looks the account up at every token refresh and userinfo call); undefined for an unknown id.
 */
export async function accountWithFamilyClaim(db: Kysely<Database>, userId: string) {
  const row = await db
    .selectFrom("user")
    .leftJoin("family_member", "family_member.user_id", "user.id")
    .leftJoin("family", "family.id", "family_member.family_id")
    .select(["user.id", "user.email", "user.emailVerified", "user.name", "user.image", "user.isAnonymous", "user.role", "user.lockedAt"])
    .select(["family.id as familyId", "family.name as familyName", "family_member.role as familyRole"])
    .where("user.id", "=", userId)
    .executeTakeFirst();
  if (!row) return undefined;
  const { familyId, familyName, familyRole, ...user } = row;
  const family: FamilyClaim | null = familyId && familyName && familyRole ? { id: familyId, name: familyName, role: familyRole as FamilyClaim["role"] } : null;
  return { ...user, family };
}

/** The family for a parent's app: its parents (name, role, address) and children, or null before there is one. */
export async function familyForApp(db: Kysely<Database>, userId: string) {
  const family = await familyOf(db, userId);
  if (!family) return null;
  return {
    id: family.id,
    name: family.name,
    role: family.role,
    // A parent who signed up by phone has no address: null, never the placeholder.
    parents: family.parents.map(({ id, name, email, role }) => ({ id, name, email: givenEmail(email), role })),
    children: family.children,
  };
}

/** A child's profile with its family, for the provider's account of a child's tablet; null for an unknown id. */
export async function childWithFamily(db: Kysely<Database>, childId: string) {
  const row = await db
    .selectFrom("family_child")
    .innerJoin("family", "family.id", "family_child.family_id")
    .select(["family_child.id", "family_child.name", "family_child.avatar", "family_child.birth_year", "family.id as family_id", "family.name as family_name"])
    .where("family_child.id", "=", childId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    child: { id: row.id, name: row.name, avatar: row.avatar, birthYear: Number(row.birth_year) },
    family: { id: row.family_id, name: row.family_name, role: "child" as const },
  };
}

/** The family as a child's tablet sees it: parents' names and roles, never their addresses. */
async function familyForChild(db: Kysely<Database>, childId: string) {
  const found = await childWithFamily(db, childId);
  if (!found) return null;
  const [parents, children] = await Promise.all([
    db
      .selectFrom("family_member")
      .innerJoin("user", "user.id", "family_member.user_id")
      .select(["user.name", "family_member.role"])
      .where("family_member.family_id", "=", found.family.id)
      .orderBy("family_member.joined_at")
      .execute(),
    db.selectFrom("family_child").select(["id", "name", "avatar", "birth_year"]).where("family_id", "=", found.family.id).orderBy("created_at").orderBy("id").execute(),
  ]);
  return {
    ...found.family,
    child: found.child,
    parents: parents.map((parent) => ({ name: parent.name, role: parent.role })),
    children: children.map((child) => ({ id: child.id, name: child.name, avatar: child.avatar, birthYear: Number(child.birth_year) })),
  };
}

/** `GET /api/family`'s answer for whoever the token is for: a parent, or a child's tablet. */
export async function familyForAccount(db: Kysely<Database>, accountId: string) {
  return (await familyForApp(db, accountId)) ?? (await familyForChild(db, accountId));
}
