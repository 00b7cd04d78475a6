import type { FamilyBrand } from "./family-notices.server";
import { changeFamily, refusals, type Actor, type Db } from "./family-store.server";

/**
 * Child devices in the family's record: the provider's device flow (app-sign-in) reports a tablet joining; the family records the change (the audit record hears of it) and every parent is mailed.
 */
/** A child's tablet joined the family: recorded, and every parent is told. */
export function recordDeviceAdded(db: Db, brand: FamilyBrand, actor: Actor, childId: string, deviceId: string): Promise<void> {
  return changeFamily(db, brand, async ({ trx, record }) => {
    const child = await trx.selectFrom("family_child").select(["family_id", "name"]).where("id", "=", childId).executeTakeFirst();
    if (!child) throw refusals.childNotFound();
    await record("device-added", child.family_id, { id: deviceId, name: child.name }, actor.id);
  });
}
