/**
 * What happened to a family, for whoever keeps a record of it (the operators' audit log): one event per change,
 * handed to every listener after the change is committed. A listener that throws is logged and skipped; it never
 * undoes the change.
 */
import { getLogger } from "~/services/logger.server";

export type FamilyChangeKind =
  | "family-created"
  | "family-renamed"
  | "family-deleted"
  | "owner-changed"
  | "parent-joined"
  | "parent-left"
  | "parent-removed"
  | "child-added"
  | "child-updated"
  | "child-removed"
  | "invitation-created"
  | "invitation-cancelled"
  | "device-added"
  | "device-removed";

export interface FamilyChange {
  kind: FamilyChangeKind;
  familyId: string;
  /** Who did it: a parent's user id, or null when the site did it (an account's deletion passing ownership on). */
  actorId: string | null;
  /** Whom or what it was done to: a parent's user id, a child's id, an invitation's or a device's id. */
  subjectId: string | null;
  at: string;
}

type Listener = (change: FamilyChange) => void | Promise<void>;
const listeners = new Set<Listener>();

/** Subscribes to every family change of this process; answers the unsubscribe function. */
export function onFamilyChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export async function emitFamilyChanges(changes: FamilyChange[]): Promise<void> {
  for (const change of changes) {
    for (const listener of listeners) {
      try {
        await listener(change);
      } catch (error) {
        getLogger().warn({ err: error, kind: change.kind }, "a family change listener failed");
      }
    }
  }
}
