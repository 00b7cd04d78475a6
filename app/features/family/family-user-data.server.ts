import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import type { UserDataHandler } from "~/features/auth/index.server";
import type { FamilyBrand } from "./family-notices.server";
import { familyOf, flushPendingChanges, leaveFamily, type Db } from "./family-store.server";

/**
 * The family's part in account deletion (the parent leaves: ownership passes on, or the last parent takes the
 * family and its children along), in a guest's sign-in to an existing account, and in the copy of one's data.
 */
export function familyUserData(brand: FamilyBrand): UserDataHandler {
  return {
    name: "family",
    exportUserData: exportFamilyData,
    deleteUserData: async (db, userId) => {
      await leaveFamily(db, brand, { id: userId }, "account-deleted");
    },
    moveUserData: async (db, fromUserId, toUserId) => {
      // Guests cannot join a family, so this only matters for rows made before that rule: the family follows the
      // person unless the account they sign in to already has one.
      const target = await db.selectFrom("family_member").select("user_id").where("user_id", "=", toUserId).executeTakeFirst();
      if (target) await leaveFamily(db, brand, { id: fromUserId }, "account-deleted");
      else await db.updateTable("family_member").set({ user_id: toUserId }).where("user_id", "=", fromUserId).execute();
    },
    afterCommit: flushPendingChanges,
  };
}

/**
 * The family as its parent's copy of their data: the family, its parents' names and roles (not the other
 * parents' addresses: their data is theirs), the children's profiles, every consent record of those children,
 * with the address and browser only of the consents this parent gave, and the invitations this parent sent (where
 * each was mailed and what became of it; never the link's token, never who accepted).
 */
export async function exportFamilyData(db: Kysely<Database> | Db, userId: string) {
  const family = await familyOf(db, userId);
  if (!family) return { family: null };
  const invitations = await db
    .selectFrom("family_invitation")
    .select(["email", "created_at", "expires_at", "accepted_at", "cancelled_at"])
    .where("family_id", "=", family.id)
    .where("invited_by", "=", userId)
    .orderBy("created_at")
    .execute();
  const consents = await db
    .selectFrom("family_consent")
    .innerJoin("family_child", "family_child.id", "family_consent.child_id")
    .select(["family_consent.child_id", "family_consent.parent_id", "family_consent.notice_version", "family_consent.consented_at", "family_consent.ip_address", "family_consent.user_agent"])
    .where("family_child.family_id", "=", family.id)
    .execute();
  return {
    family: {
      id: family.id,
      name: family.name,
      role: family.role,
      parents: family.parents.map(({ name, role, joinedAt, id }) => ({ name, role, joinedAt, you: id === userId })),
      children: family.children.map((child) => ({
        ...child,
        consents: consents
          .filter((consent) => consent.child_id === child.id)
          .map((consent) => ({
            noticeVersion: consent.notice_version,
            consentedAt: consent.consented_at,
            byYou: consent.parent_id === userId,
            ...(consent.parent_id === userId ? { ipAddress: consent.ip_address, userAgent: consent.user_agent } : {}),
          })),
      })),
      invitationsSent: invitations.map((invitation) => ({
        email: invitation.email,
        createdAt: invitation.created_at,
        expiresAt: invitation.expires_at,
        acceptedAt: invitation.accepted_at,
        cancelledAt: invitation.cancelled_at,
      })),
    },
  };
}
