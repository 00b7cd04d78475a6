import type { FamilyBrand } from "./family-notices.server";
import type { ChildDeviceView } from "./family-screen-types";
import { changeFamily, endChildDevices, refusals, requireMembership, type Actor, type Db } from "./family-store.server";

/**
 * Child devices in the family's record: the provider's device flow (app-sign-in) reports a tablet joining with its
 * grant's id (the id of the approving parent's session row); the family keeps the tablet against the child, so every
 * parent sees it and can end it, and every parent is mailed when one comes or goes.
 */

/** A child's tablet joined the family: kept against the child, recorded, and every parent is told. */
export function recordDeviceAdded(db: Db, brand: FamilyBrand, actor: Actor, childId: string, grantId: string, appName: string): Promise<void> {
  return changeFamily(db, brand, async ({ trx, record }) => {
    const child = await trx.selectFrom("family_child").select(["family_id", "name"]).where("id", "=", childId).executeTakeFirst();
    if (!child) throw refusals.childNotFound();
    await trx.insertInto("family_device").values({ grant_id: grantId, child_id: childId, approved_by: actor.id, app_name: appName, created_at: new Date().toISOString() }).execute();
    await record("device-added", child.family_id, { id: grantId, name: child.name }, actor.id);
  });
}

/** The family's live child devices, whichever parent approved them (a device whose sign-in ended is gone). */
export async function childDevicesOf(db: Db, familyId: string): Promise<ChildDeviceView[]> {
  const rows = await db
    .selectFrom("family_device")
    .innerJoin("family_child", "family_child.id", "family_device.child_id")
    .innerJoin("session", "session.id", "family_device.grant_id")
    .leftJoin("user", "user.id", "family_device.approved_by")
    .select(["family_device.grant_id", "family_device.app_name", "family_device.created_at", "family_child.name as child_name", "user.name as approver", "session.expiresAt"])
    .where("family_child.family_id", "=", familyId)
    .orderBy("family_device.created_at")
    .orderBy("family_device.grant_id")
    .execute();
  const now = Date.now();
  return rows
    .filter((row) => new Date(row.expiresAt).getTime() > now)
    .map((row) => ({ id: row.grant_id, childName: row.child_name, appName: row.app_name, approvedBy: row.approver || "一位家長", joinedAt: row.created_at }));
}

/** The child devices of the viewer's family (none outside one), for 帳號安全 and the family page. */
export async function childDevicesFor(db: Db, userId: string): Promise<ChildDeviceView[]> {
  const member = await db.selectFrom("family_member").select("family_id").where("user_id", "=", userId).executeTakeFirst();
  return member ? childDevicesOf(db, member.family_id) : [];
}

/**
 * After an operator locks a parent (docs/decisions/621-tablets-of-a-locked-parent.md): the tablets that parent
 * approved have already ended with the parent's sessions; when no parent of the family is left who can sign in,
 * every other tablet of the family ends too (one approved by a parent who has since left), since nobody is left
 * to see or end it. Answers how many tablets ended here.
 */
export async function endTabletsOfLockedFamily(db: Db, lockedParentId: string): Promise<number> {
  const member = await db.selectFrom("family_member").select("family_id").where("user_id", "=", lockedParentId).executeTakeFirst();
  if (!member) return 0;
  const standing = await db
    .selectFrom("family_member")
    .innerJoin("user", "user.id", "family_member.user_id")
    .select("user.id")
    .where("family_member.family_id", "=", member.family_id)
    .where("user.lockedAt", "is", null)
    .executeTakeFirst();
  if (standing) return 0;
  const before = (await childDevicesOf(db, member.family_id)).length;
  await endChildDevices(db, "family_child.family_id", member.family_id);
  return before;
}

/** Any parent of the family ends a child's tablet: its session row goes, so its tokens stop on every instance at once. */
export function endChildDevice(db: Db, brand: FamilyBrand, actor: Actor, deviceId: string): Promise<void> {
  return changeFamily(db, brand, async ({ trx, record }) => {
    const member = await requireMembership(trx, actor.id);
    const device = await trx
      .selectFrom("family_device")
      .innerJoin("family_child", "family_child.id", "family_device.child_id")
      .select(["family_device.grant_id", "family_child.name"])
      .where("family_device.grant_id", "=", deviceId)
      .where("family_child.family_id", "=", member.family_id)
      .executeTakeFirst();
    if (!device) throw refusals.deviceNotFound();
    await record("device-removed", member.family_id, { id: device.grant_id, name: device.name }, actor.id);
    await trx.deleteFrom("session").where("id", "=", device.grant_id).execute();
  });
}
