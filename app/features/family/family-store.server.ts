import { randomUUID } from "node:crypto";
import { PostgresAdapter, type Kysely, type Transaction } from "kysely";
import type { Database } from "~/db/schema";
import { isUniqueViolation } from "~/services/dependency-errors.server";
import { emitFamilyChanges, type FamilyChange, type FamilyChangeKind } from "./family-events.server";
import { noticeParents, type FamilyBrand } from "./family-notices.server";
import { consentNoticeVersion, type Avatar, type FamilyRole, type FamilyView } from "./family-rules";

/**
 * A family's data and its rules (issue 31): who may change what, one change at a time per family, the parents'
 * notices written in the change's transaction and the change handed to listeners once it is committed.
 * Every change locks the family's row first (PostgreSQL; SQLite has one writer), then reads who is who again,
 * so two parents acting at once never leave a family without an owner or a parent in two families.
 */
export type Db = Kysely<Database> | Transaction<Database>;

export class FamilyRefusal extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const refusals = {
  noFamily: () => new FamilyRefusal(404, "family/not-found", "你還沒有加入家庭。"),
  ownerOnly: () => new FamilyRefusal(403, "family/owner-only", "只有家庭的擁有者可以這麼做。"),
  alreadyInFamily: () => new FamilyRefusal(409, "family/already-in-family", "你已經在一個家庭裡了；一位家長只能加入一個家庭。"),
  parentNotFound: () => new FamilyRefusal(404, "family/parent-not-found", "這位家長不在你的家庭裡。"),
  notYourself: () => new FamilyRefusal(400, "family/not-yourself", "不能對自己這麼做；要離開家庭，請用「離開家庭」。"),
  childNotFound: () => new FamilyRefusal(404, "family/child-not-found", "找不到這個孩子的資料。"),
  deviceNotFound: () => new FamilyRefusal(404, "family/device-not-found", "找不到這台平板，它可能已經退出家庭。"),
  tooManyChildren: () => new FamilyRefusal(409, "family/too-many-children", `一個家庭最多可以有 ${maxChildren} 位孩子。`),
};

export const maxChildren = 12;

export interface Actor {
  id: string;
}

export interface ChildInput {
  name: string;
  avatar: Avatar;
  birthYear: number;
}

/** Where a consent came from: the request's client address and browser. */
export interface ConsentSource {
  ipAddress: string | null;
  userAgent: string | null;
}

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;
const now = () => new Date().toISOString();

interface Membership {
  user_id: string;
  family_id: string;
  role: string;
}

/** A change's context inside its transaction: record the change (and mail the parents if it is one they hear of). */
export interface ChangeScope {
  trx: Transaction<Database>;
  record(kind: FamilyChangeKind, familyId: string, subject: { id: string | null; name?: string }, actorId: string | null): Promise<void>;
}

/** Changes recorded inside a transaction someone else commits (account deletion): handed on by `flushPendingChanges`. */
const pending: FamilyChange[] = [];

export async function flushPendingChanges(): Promise<void> {
  await emitFamilyChanges(pending.splice(0));
}

/** Runs `work` in a transaction (or the caller's), records its changes and hands them on after the commit. */
export async function changeFamily<T>(db: Db, brand: FamilyBrand, work: (scope: ChangeScope) => Promise<T>): Promise<T> {
  const changes: FamilyChange[] = [];
  const run = async (trx: Transaction<Database>) =>
    work({
      trx,
      async record(kind, familyId, subject, actorId) {
        changes.push({ kind, familyId, actorId, subjectId: subject.id, at: now() });
        if (subject.name !== undefined) await noticeParents(trx, brand, { kind, familyId, subjectId: subject.id ?? undefined, subjectName: subject.name });
      },
    });
  if (db.isTransaction) {
    const result = await run(db as Transaction<Database>);
    pending.push(...changes);
    return result;
  }
  try {
    const result = await (db as Kysely<Database>).transaction().execute(run);
    await emitFamilyChanges(changes);
    return result;
  } catch (error) {
    // Two requests making one parent a member at once: the key on family_member.user_id lets one win.
    if (isUniqueViolation(error)) throw refusals.alreadyInFamily();
    throw error;
  }
}

/** The user's membership with their family's row locked, read again after the lock; null when in no family. */
export async function lockMembership(trx: Transaction<Database>, userId: string): Promise<Membership | null> {
  for (;;) {
    const before = await trx.selectFrom("family_member").select(["family_id"]).where("user_id", "=", userId).executeTakeFirst();
    if (!before) return null;
    await lockFamily(trx, before.family_id);
    const after = await trx.selectFrom("family_member").select(["user_id", "family_id", "role"]).where("user_id", "=", userId).executeTakeFirst();
    if (!after || after.family_id === before.family_id) return after ?? null;
  }
}

export async function lockFamily(trx: Transaction<Database>, familyId: string) {
  return trx
    .selectFrom("family")
    .select(["id", "name"])
    .where("id", "=", familyId)
    .$if(isPostgres(trx), (query) => query.forUpdate())
    .executeTakeFirst();
}

export async function requireMembership(trx: Transaction<Database>, userId: string): Promise<Membership> {
  const member = await lockMembership(trx, userId);
  if (!member) throw refusals.noFamily();
  return member;
}

async function requireOwner(trx: Transaction<Database>, userId: string): Promise<Membership> {
  const member = await requireMembership(trx, userId);
  if (member.role !== "owner") throw refusals.ownerOnly();
  return member;
}

async function nameOf(trx: Db, userId: string): Promise<string> {
  const user = await trx.selectFrom("user").select(["name", "email"]).where("id", "=", userId).executeTakeFirst();
  return user?.name || user?.email.split("@")[0] || "一位家長";
}

async function otherParent(trx: Db, familyId: string, userId: string) {
  return trx
    .selectFrom("family_member")
    .select(["user_id"])
    .where("family_id", "=", familyId)
    .where("user_id", "!=", userId)
    .orderBy("joined_at")
    .orderBy("user_id")
    .executeTakeFirst();
}

/** The family of `userId` as they see it, or null. */
export async function familyOf(db: Db, userId: string): Promise<FamilyView | null> {
  const member = await db
    .selectFrom("family_member")
    .innerJoin("family", "family.id", "family_member.family_id")
    .select(["family.id", "family.name", "family_member.role"])
    .where("family_member.user_id", "=", userId)
    .executeTakeFirst();
  if (!member) return null;
  const [parents, children] = await Promise.all([
    db
      .selectFrom("family_member")
      .innerJoin("user", "user.id", "family_member.user_id")
      .select(["user.id", "user.name", "user.email", "family_member.role", "family_member.joined_at"])
      .where("family_member.family_id", "=", member.id)
      .orderBy("family_member.joined_at")
      .execute(),
    db.selectFrom("family_child").select(["id", "name", "avatar", "birth_year"]).where("family_id", "=", member.id).orderBy("created_at").orderBy("id").execute(),
  ]);
  return {
    id: member.id,
    name: member.name,
    role: member.role as FamilyRole,
    parents: parents.map((parent) => ({ id: parent.id, name: parent.name, email: parent.email, role: parent.role as FamilyRole, joinedAt: parent.joined_at })),
    children: children.map((child) => ({ id: child.id, name: child.name, avatar: child.avatar as Avatar, birthYear: Number(child.birth_year) })),
  };
}

export function createFamily(db: Db, brand: FamilyBrand, actor: Actor, name: string): Promise<string> {
  return changeFamily(db, brand, async ({ trx, record }) => {
    if (await trx.selectFrom("family_member").select("user_id").where("user_id", "=", actor.id).executeTakeFirst()) throw refusals.alreadyInFamily();
    const id = randomUUID();
    const at = now();
    await trx.insertInto("family").values({ id, name, created_at: at, updated_at: at }).execute();
    await trx.insertInto("family_member").values({ user_id: actor.id, family_id: id, role: "owner", joined_at: at }).execute();
    await record("family-created", id, { id }, actor.id);
    return id;
  });
}

export function renameFamily(db: Db, brand: FamilyBrand, actor: Actor, name: string): Promise<void> {
  return changeFamily(db, brand, async ({ trx, record }) => {
    const member = await requireOwner(trx, actor.id);
    await trx.updateTable("family").set({ name, updated_at: now() }).where("id", "=", member.family_id).execute();
    await record("family-renamed", member.family_id, { id: member.family_id }, actor.id);
  });
}

export function transferOwnership(db: Db, brand: FamilyBrand, actor: Actor, parentId: string): Promise<void> {
  return changeFamily(db, brand, async ({ trx, record }) => {
    const member = await requireOwner(trx, actor.id);
    if (parentId === actor.id) throw refusals.notYourself();
    const target = await trx.selectFrom("family_member").select("user_id").where("user_id", "=", parentId).where("family_id", "=", member.family_id).executeTakeFirst();
    if (!target) throw refusals.parentNotFound();
    await trx.updateTable("family_member").set({ role: "parent" }).where("user_id", "=", actor.id).execute();
    await trx.updateTable("family_member").set({ role: "owner" }).where("user_id", "=", parentId).execute();
    await record("owner-changed", member.family_id, { id: parentId, name: await nameOf(trx, parentId) }, actor.id);
  });
}

/**
 * Ends at once the tablets of the children matched by `column` (a child's id, or its family's): their grants'
 * session rows go, so every instance refuses their tokens at the next request, and their family_device rows with them.
 */
export async function endChildDevices(trx: Db, column: "family_child.id" | "family_child.family_id", value: string) {
  const grants = trx.selectFrom("family_device").innerJoin("family_child", "family_child.id", "family_device.child_id").select("family_device.grant_id").where(column, "=", value);
  await trx.deleteFrom("session").where("id", "in", grants).execute();
}

async function deleteFamilyRows(trx: Transaction<Database>, familyId: string) {
  await endChildDevices(trx, "family_child.family_id", familyId);
  // Consents, children and members go with the family (the keys cascade).
  await trx.deleteFrom("family").where("id", "=", familyId).execute();
}

export function removeParent(db: Db, brand: FamilyBrand, actor: Actor, parentId: string): Promise<void> {
  return changeFamily(db, brand, async ({ trx, record }) => {
    const member = await requireOwner(trx, actor.id);
    if (parentId === actor.id) throw refusals.notYourself();
    const target = await trx.selectFrom("family_member").select("user_id").where("user_id", "=", parentId).where("family_id", "=", member.family_id).executeTakeFirst();
    if (!target) throw refusals.parentNotFound();
    // Mailed first, so the removed parent hears of it too.
    await record("parent-removed", member.family_id, { id: parentId, name: await nameOf(trx, parentId) }, actor.id);
    await trx.deleteFrom("family_member").where("user_id", "=", parentId).execute();
  });
}

export function deleteFamily(db: Db, brand: FamilyBrand, actor: Actor): Promise<void> {
  return changeFamily(db, brand, async ({ trx, record }) => {
    const member = await requireOwner(trx, actor.id);
    await record("family-deleted", member.family_id, { id: member.family_id, name: "" }, actor.id);
    await deleteFamilyRows(trx, member.family_id);
  });
}

/**
 * A parent leaves (by choice, or because the account is being deleted). An owner's ownership passes to the parent
 * who joined first; the last parent takes the family and its children's profiles along.
 */
export function leaveFamily(db: Db, brand: FamilyBrand, actor: Actor, reason: "left" | "account-deleted" = "left"): Promise<"left" | "family-deleted" | "none"> {
  return changeFamily(db, brand, async ({ trx, record }) => {
    const member = await lockMembership(trx, actor.id);
    if (!member) {
      if (reason === "left") throw refusals.noFamily();
      return "none";
    }
    const heir = await otherParent(trx, member.family_id, actor.id);
    const actorId = reason === "left" ? actor.id : null;
    if (!heir) {
      await record("family-deleted", member.family_id, { id: member.family_id }, actorId);
      await deleteFamilyRows(trx, member.family_id);
      return "family-deleted";
    }
    const leaverName = await nameOf(trx, actor.id);
    await trx.deleteFrom("family_member").where("user_id", "=", actor.id).execute();
    await record("parent-left", member.family_id, { id: actor.id, name: leaverName }, actorId);
    if (member.role === "owner") {
      await trx.updateTable("family_member").set({ role: "owner" }).where("user_id", "=", heir.user_id).execute();
      await record("owner-changed", member.family_id, { id: heir.user_id, name: await nameOf(trx, heir.user_id) }, null);
    }
    return "left";
  });
}

async function requireChild(trx: Transaction<Database>, familyId: string, childId: string) {
  const child = await trx.selectFrom("family_child").select(["id", "name"]).where("id", "=", childId).where("family_id", "=", familyId).executeTakeFirst();
  if (!child) throw refusals.childNotFound();
  return child;
}

/** Adds a child's profile with the adding parent's consent on record (who, when, from where, which notice). */
export function addChild(db: Db, brand: FamilyBrand, actor: Actor, input: ChildInput, source: ConsentSource): Promise<string> {
  return changeFamily(db, brand, async ({ trx, record }) => {
    const member = await requireMembership(trx, actor.id);
    const count = await trx.selectFrom("family_child").select((eb) => eb.fn.countAll<number | string>().as("n")).where("family_id", "=", member.family_id).executeTakeFirstOrThrow();
    if (Number(count.n) >= maxChildren) throw refusals.tooManyChildren();
    const parent = await trx.selectFrom("user").select("email").where("id", "=", actor.id).executeTakeFirstOrThrow();
    const id = randomUUID();
    const at = now();
    await trx
      .insertInto("family_child")
      .values({ id, family_id: member.family_id, name: input.name, avatar: input.avatar, birth_year: input.birthYear, created_at: at, updated_at: at })
      .execute();
    await trx
      .insertInto("family_consent")
      .values({
        id: randomUUID(),
        child_id: id,
        parent_id: actor.id,
        parent_email: parent.email,
        notice_version: consentNoticeVersion,
        ip_address: source.ipAddress?.slice(0, 64) ?? null,
        user_agent: source.userAgent?.slice(0, 500) ?? null,
        consented_at: at,
      })
      .execute();
    await record("child-added", member.family_id, { id, name: input.name }, actor.id);
    return id;
  });
}

export function updateChild(db: Db, brand: FamilyBrand, actor: Actor, childId: string, input: ChildInput): Promise<void> {
  return changeFamily(db, brand, async ({ trx, record }) => {
    const member = await requireMembership(trx, actor.id);
    await requireChild(trx, member.family_id, childId);
    await trx.updateTable("family_child").set({ name: input.name, avatar: input.avatar, birth_year: input.birthYear, updated_at: now() }).where("id", "=", childId).execute();
    await record("child-updated", member.family_id, { id: childId }, actor.id);
  });
}

/** Removes a child's profile and its consent record, and ends the child's tablets. */
export function removeChild(db: Db, brand: FamilyBrand, actor: Actor, childId: string): Promise<void> {
  return changeFamily(db, brand, async ({ trx, record }) => {
    const member = await requireMembership(trx, actor.id);
    const child = await requireChild(trx, member.family_id, childId);
    await record("child-removed", member.family_id, { id: childId, name: child.name }, actor.id);
    await endChildDevices(trx, "family_child.id", childId);
    await trx.deleteFrom("family_child").where("id", "=", childId).execute();
  });
}
