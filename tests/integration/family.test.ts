import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { deleteUserData, exportUserData, registerUserDataHandler } from "~/features/auth/index.server";
import { onFamilyChange, type FamilyChange } from "~/features/family/family-events.server";
import {
  addChild,
  createFamily,
  deleteFamily,
  familyOf,
  FamilyRefusal,
  leaveFamily,
  removeChild,
  removeParent,
  renameFamily,
  transferOwnership,
  updateChild,
} from "~/features/family/family-store.server";
import { familyUserData } from "~/features/family/family-user-data.server";
import { consentNoticeVersion } from "~/features/family/family-rules";
import { acceptInvitation, cancelInvitation, createInvitation, openInvitations, previewInvitation } from "~/features/family/family-invitations.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { accountRow } from "./factories";

const brand = { productName: "任務小勇士", supportEmail: "support@example.tw", siteUrl: "http://localhost:3000" };
beforeAll(() => registerUserDataHandler(familyUserData(brand)));

const source = { ipAddress: "192.0.2.10", userAgent: "Mozilla/5.0 (iPhone)" };
const child = { name: "小明", avatar: "lion" as const, birthYear: new Date().getFullYear() - 6 };

describeEachDatabase("families", (database) => {
  const db = () => database().handle.db;
  const events: FamilyChange[] = [];
  let stopListening = () => {};
  beforeAll(() => {
    stopListening = onFamilyChange((change) => {
      events.push(change);
    });
  });
  afterAll(() => stopListening());

  const user = (name = "家長", verified = true) => accountRow(db(), { name, verified });

  /** Test set-up only: a second parent placed in the family (the invitation's own tests cover joining). */
  async function joinDirectly(familyId: string, userId: string) {
    await db().insertInto("family_member").values({ user_id: userId, family_id: familyId, role: "parent", joined_at: new Date().toISOString() }).execute();
  }

  async function household() {
    const owner = await user("小明媽媽");
    const parent = await user("小明爸爸");
    const familyId = await createFamily(db(), brand, owner, "王家");
    await joinDirectly(familyId, parent.id);
    return { owner, parent, familyId };
  }

  const mailsTo = (email: string) => db().selectFrom("mail_outbox").select(["subject", "text"]).where("recipient", "=", email).execute();

  async function refusal(promise: Promise<unknown>): Promise<FamilyRefusal> {
    const error = await promise.then(() => null, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(FamilyRefusal);
    return error as FamilyRefusal;
  }

  /** Every family has members and exactly one owner; nobody is in two families (the key makes that impossible). */
  async function expectConsistent(database: Kysely<Database>) {
    const families = await database.selectFrom("family").select("id").execute();
    for (const { id } of families) {
      const members = await database.selectFrom("family_member").select("role").where("family_id", "=", id).execute();
      expect(members.length).toBeGreaterThan(0);
      expect(members.filter((member) => member.role === "owner")).toHaveLength(1);
    }
  }

  it("creates a family with its creator as owner; a parent belongs to one family", async () => {
    const owner = await user();
    const familyId = await createFamily(db(), brand, owner, "王家");
    const family = await familyOf(db(), owner.id);
    expect(family).toMatchObject({ id: familyId, name: "王家", role: "owner", children: [] });
    expect(family?.parents).toEqual([expect.objectContaining({ id: owner.id, role: "owner" })]);
    expect((await refusal(createFamily(db(), brand, owner, "另一個家"))).code).toBe("family/already-in-family");
    expect(events).toContainEqual(expect.objectContaining({ kind: "family-created", familyId, actorId: owner.id }));
  });

  it("lets only the owner rename, hand ownership on, and remove a parent; the removed parent and the rest hear of it", async () => {
    const { owner, parent, familyId } = await household();
    expect((await refusal(renameFamily(db(), brand, parent, "爸爸的家"))).code).toBe("family/owner-only");
    expect((await refusal(removeParent(db(), brand, parent, owner.id))).code).toBe("family/owner-only");
    expect((await refusal(deleteFamily(db(), brand, parent))).status).toBe(403);
    expect((await refusal(removeParent(db(), brand, owner, owner.id))).code).toBe("family/not-yourself");
    const stranger = await user();
    expect((await refusal(transferOwnership(db(), brand, owner, stranger.id))).code).toBe("family/parent-not-found");

    await renameFamily(db(), brand, owner, "王家大小");
    expect((await familyOf(db(), parent.id))?.name).toBe("王家大小");

    await transferOwnership(db(), brand, owner, parent.id);
    expect((await familyOf(db(), parent.id))?.role).toBe("owner");
    expect((await familyOf(db(), owner.id))?.role).toBe("parent");
    expect((await mailsTo(owner.email)).some((mail) => mail.text.includes("「小明爸爸」現在是家庭「王家大小」的擁有者"))).toBe(true);

    await removeParent(db(), brand, parent, owner.id);
    expect(await familyOf(db(), owner.id)).toBeNull();
    expect((await familyOf(db(), parent.id))?.parents).toHaveLength(1);
    // The other parents read who went; the removed parent is spoken to (你).
    expect((await mailsTo(parent.email)).some((mail) => mail.text.includes("「小明媽媽」已被移出家庭「王家大小」。"))).toBe(true);
    expect((await mailsTo(owner.email)).some((mail) => mail.text.includes("你已被移出家庭「王家大小」。"))).toBe(true);
    expect((await mailsTo(owner.email)).some((mail) => mail.text.includes("「小明媽媽」已被移出家庭"))).toBe(false);
    expect(events).toContainEqual(expect.objectContaining({ kind: "parent-removed", familyId, actorId: parent.id, subjectId: owner.id }));
    await expectConsistent(db());
  });

  it("records the adding parent's consent with each child's profile, and mails every parent when a child comes or goes", async () => {
    const { owner, parent, familyId } = await household();
    const childId = await addChild(db(), brand, parent, child, source);
    const consent = await db().selectFrom("family_consent").selectAll().where("child_id", "=", childId).executeTakeFirstOrThrow();
    expect(consent).toMatchObject({ parent_id: parent.id, parent_email: parent.email, notice_version: consentNoticeVersion, ip_address: "192.0.2.10", user_agent: "Mozilla/5.0 (iPhone)" });
    expect(Date.now() - new Date(consent.consented_at).getTime()).toBeLessThan(60_000);
    for (const email of [owner.email, parent.email]) expect((await mailsTo(email)).some((mail) => mail.text.includes("新增了孩子「小明」"))).toBe(true);

    await updateChild(db(), brand, owner, childId, { name: "小明明", avatar: "panda", birthYear: child.birthYear });
    expect((await familyOf(db(), owner.id))?.children).toEqual([{ id: childId, name: "小明明", avatar: "panda", birthYear: child.birthYear }]);

    const outsider = await user();
    await createFamily(db(), brand, outsider, "李家");
    expect((await refusal(removeChild(db(), brand, outsider, childId))).code).toBe("family/child-not-found");
    expect((await refusal(updateChild(db(), brand, outsider, childId, child))).status).toBe(404);

    await removeChild(db(), brand, owner, childId);
    expect((await familyOf(db(), parent.id))?.children).toEqual([]);
    expect(await db().selectFrom("family_consent").select("id").where("child_id", "=", childId).execute()).toEqual([]);
    expect((await mailsTo(parent.email)).some((mail) => mail.text.includes("移除了孩子「小明明」"))).toBe(true);
    expect(events).toContainEqual(expect.objectContaining({ kind: "child-removed", familyId, subjectId: childId }));
  });

  it("does not mail an address that was never verified", async () => {
    const owner = await user("未驗證", false);
    await createFamily(db(), brand, owner, "陳家");
    await addChild(db(), brand, owner, child, source);
    expect(await mailsTo(owner.email)).toEqual([]);
  });

  it("passes ownership on when the owner leaves, and takes the family and its children along with the last parent", async () => {
    const { owner, parent, familyId } = await household();
    await addChild(db(), brand, owner, child, source);
    expect(await leaveFamily(db(), brand, owner)).toBe("left");
    expect((await familyOf(db(), parent.id))?.role).toBe("owner");
    expect((await mailsTo(parent.email)).some((mail) => mail.text.includes("「小明媽媽」離開了家庭"))).toBe(true);
    expect(await leaveFamily(db(), brand, parent)).toBe("family-deleted");
    expect(await db().selectFrom("family").select("id").where("id", "=", familyId).execute()).toEqual([]);
    expect(await db().selectFrom("family_child").select("id").where("family_id", "=", familyId).execute()).toEqual([]);
    expect((await refusal(leaveFamily(db(), brand, parent))).code).toBe("family/not-found");
  });

  it("lets the owner delete the family: children and consents go, every parent is told", async () => {
    const { owner, parent, familyId } = await household();
    const childId = await addChild(db(), brand, parent, child, source);
    await deleteFamily(db(), brand, owner);
    expect(await familyOf(db(), parent.id)).toBeNull();
    expect(await db().selectFrom("family_consent").select("id").where("child_id", "=", childId).execute()).toEqual([]);
    expect((await mailsTo(parent.email)).some((mail) => mail.text.includes("家庭「王家」已刪除"))).toBe(true);
    expect(events).toContainEqual(expect.objectContaining({ kind: "family-deleted", familyId, actorId: owner.id }));
  });

  describe("account deletion (the user-data hook)", () => {
    it("hands ownership to the other parent, then deletes the family with the last parent", async () => {
      const { owner, parent, familyId } = await household();
      await addChild(db(), brand, owner, child, source);
      await deleteUserData(db(), owner.id);
      await db().deleteFrom("user").where("id", "=", owner.id).execute();
      expect((await familyOf(db(), parent.id))?.role).toBe("owner");
      expect(events).toContainEqual(expect.objectContaining({ kind: "owner-changed", familyId, actorId: null, subjectId: parent.id }));
      await deleteUserData(db(), parent.id);
      expect(await db().selectFrom("family").select("id").where("id", "=", familyId).execute()).toEqual([]);
      expect(events).toContainEqual(expect.objectContaining({ kind: "family-deleted", familyId, actorId: null }));
    });

    it("runs inside the deletion's transaction: a later handler's failure leaves the family as it was", async () => {
      const { owner, familyId } = await household();
      const unregister = registerUserDataHandler({ name: "family-test-failure", exportUserData: async () => null, moveUserData: async () => {}, deleteUserData: async () => Promise.reject(new Error("boom")) });
      try {
        await expect(deleteUserData(db(), owner.id)).rejects.toThrow("boom");
      } finally {
        unregister();
      }
      expect((await familyOf(db(), owner.id))?.id).toBe(familyId);
      expect((await familyOf(db(), owner.id))?.role).toBe("owner");
    });
  });

  it("puts the family, its children and the consent records in the copy of a parent's data, without the other parent's address", async () => {
    const { owner, parent } = await household();
    await addChild(db(), brand, owner, child, source);
    await addChild(db(), brand, parent, { ...child, name: "小華" }, { ipAddress: "198.51.100.7", userAgent: "Firefox" });
    const copy = (await exportUserData(db(), owner.id)).family as { family: { name: string; role: string; children: { name: string; consents: Record<string, unknown>[] }[] } };
    expect(copy.family).toMatchObject({ name: "王家", role: "owner" });
    // Both children may share one millisecond of created_at: find each by name, not by position.
    const first = copy.family.children.find((entry) => entry.name === child.name);
    const second = copy.family.children.find((entry) => entry.name === "小華");
    expect(first?.consents).toEqual([expect.objectContaining({ byYou: true, noticeVersion: consentNoticeVersion, ipAddress: "192.0.2.10" })]);
    expect(second?.consents).toEqual([{ byYou: false, noticeVersion: consentNoticeVersion, consentedAt: expect.any(String) }]);
    const text = JSON.stringify(copy);
    expect(text).not.toContain(parent.email);
    expect(text).not.toContain("198.51.100.7");
    expect((await exportUserData(db(), (await user()).id)).family).toEqual({ family: null });
  });

  describe("invitations", () => {
    const tokenOf = (link: string) => new URL(link).searchParams.get("token") ?? "";

    it("invites a co-parent by a single-use link that any parent sees and the invitee accepts; every parent hears of the join", async () => {
      const owner = await user("小明媽媽");
      const familyId = await createFamily(db(), brand, owner, "王家");
      const invitation = await createInvitation(db(), brand, owner, null);
      expect(invitation.link).toMatch(/^http:\/\/localhost:3000\/account\/family\/join\?token=[\w-]{43}$/);
      expect(new Date(invitation.expiresAt).getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
      expect(await openInvitations(db(), familyId)).toEqual([expect.objectContaining({ id: invitation.id, email: null, invitedBy: "小明媽媽" })]);
      expect(await previewInvitation(db(), tokenOf(invitation.link))).toMatchObject({ familyName: "王家", inviterName: "小明媽媽" });

      const coParent = await user("小明爸爸");
      expect(await acceptInvitation(db(), brand, { id: coParent.id, name: "小明爸爸" }, tokenOf(invitation.link))).toBe(familyId);
      expect((await familyOf(db(), coParent.id))?.role).toBe("parent");
      for (const email of [owner.email, coParent.email]) expect((await mailsTo(email)).some((mail) => mail.text.includes("「小明爸爸」以家長身分加入了家庭「王家」"))).toBe(true);
      expect(await openInvitations(db(), familyId)).toEqual([]);

      // The same person's second press is the join that already happened; anyone else's is refused.
      expect(await acceptInvitation(db(), brand, { id: coParent.id, name: "小明爸爸" }, tokenOf(invitation.link))).toBe(familyId);
      const third = await user();
      expect((await refusal(acceptInvitation(db(), brand, { id: third.id, name: "路人" }, tokenOf(invitation.link)))).code).toBe("family/invitation-taken");
      await db().updateTable("family_invitation").set({ accepted_at: new Date(Date.now() - 3_600_000).toISOString() }).where("id", "=", invitation.id).execute();
      expect((await refusal(acceptInvitation(db(), brand, { id: third.id, name: "路人" }, tokenOf(invitation.link)))).code).toBe("family/invitation-used");
      expect((await refusal(previewInvitation(db(), tokenOf(invitation.link)))).code).toBe("family/invitation-used");
      expect((await refusal(previewInvitation(db(), "no-such-token"))).code).toBe("family/invitation-invalid");
    });

    it("puts the invitations a parent sent in that parent's copy of their data: where, when, what became of them, never the link", async () => {
      const { owner, parent } = await household();
      const mailed = `grandma-${randomUUID().slice(0, 8)}@example.tw`;
      const open = await createInvitation(db(), brand, owner, mailed);
      const cancelled = await createInvitation(db(), brand, owner, null);
      await cancelInvitation(db(), brand, parent, cancelled.id);
      await createInvitation(db(), brand, parent, null);
      const copy = (await exportUserData(db(), owner.id)).family as { family: { invitationsSent: Record<string, unknown>[] } };
      expect(copy.family.invitationsSent).toHaveLength(2);
      expect(copy.family.invitationsSent).toEqual(expect.arrayContaining([
        { email: mailed, createdAt: expect.any(String), expiresAt: open.expiresAt, acceptedAt: null, cancelledAt: null },
        { email: null, createdAt: expect.any(String), expiresAt: cancelled.expiresAt, acceptedAt: null, cancelledAt: expect.any(String) },
      ]));
      expect(JSON.stringify(copy)).not.toContain(new URL(open.link).searchParams.get("token"));
      const theirs = (await exportUserData(db(), parent.id)).family as { family: { invitationsSent: unknown[] } };
      expect(theirs.family.invitationsSent).toHaveLength(1);
    });

    it("mails the link to an address alike whether or not it has an account, and stores only the token's hash", async () => {
      const owner = await user();
      await createFamily(db(), brand, owner, "林家");
      const member = await user();
      const stranger = `nobody-${randomUUID().slice(0, 8)}@example.tw`;
      const answers = [await createInvitation(db(), brand, owner, member.email), await createInvitation(db(), brand, owner, stranger)];
      expect(answers.map((answer) => Object.keys(answer).sort())).toEqual([["expiresAt", "id", "link"], ["expiresAt", "id", "link"]]);
      for (const [email, answer] of [[member.email, answers[0]], [stranger, answers[1]]] as const) {
        const [mail] = await mailsTo(email);
        expect(mail?.subject).toContain("邀請你一起管理家庭「林家」");
        expect(mail?.text).toContain(answer!.link);
      }
      const stored = await db().selectFrom("family_invitation").select("token_hash").where("id", "=", answers[0]!.id).executeTakeFirstOrThrow();
      expect(answers[0]!.link).not.toContain(stored.token_hash);
    });

    it("lets either parent cancel an open invitation, refuses an expired one, and keeps a parent in one family", async () => {
      const { owner, parent, familyId } = await household();
      const first = await createInvitation(db(), brand, owner, null);
      await cancelInvitation(db(), brand, parent, first.id);
      expect(await openInvitations(db(), familyId)).toEqual([]);
      expect((await refusal(cancelInvitation(db(), brand, owner, first.id))).code).toBe("family/invitation-not-found");
      const newcomer = await user();
      expect((await refusal(acceptInvitation(db(), brand, { id: newcomer.id, name: "新" }, tokenOf(first.link)))).code).toBe("family/invitation-cancelled");

      const outsider = await user();
      await createFamily(db(), brand, outsider, "別家");
      expect((await refusal(cancelInvitation(db(), brand, outsider, (await createInvitation(db(), brand, owner, null)).id))).code).toBe("family/invitation-not-found");

      const second = await createInvitation(db(), brand, owner, null);
      expect((await refusal(acceptInvitation(db(), brand, { id: outsider.id, name: "別家" }, tokenOf(second.link)))).code).toBe("family/already-in-family");
      // The refusal did not use the link up.
      expect((await openInvitations(db(), familyId)).map((open) => open.id)).toContain(second.id);

      await db().updateTable("family_invitation").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("id", "=", second.id).execute();
      expect((await refusal(acceptInvitation(db(), brand, { id: newcomer.id, name: "新" }, tokenOf(second.link)))).code).toBe("family/invitation-expired");
      expect((await refusal(createInvitation(db(), brand, newcomer, null))).code).toBe("family/not-found");
    });
  });

  describe("races", () => {
    it("two people accepting one invitation at once: exactly one joins", async () => {
      for (let round = 0; round < 5; round += 1) {
        const owner = await user();
        const familyId = await createFamily(db(), brand, owner, "搶先家");
        const { link } = await createInvitation(db(), brand, owner, null);
        const token = new URL(link).searchParams.get("token") ?? "";
        const [first, second] = [await user(), await user()];
        const results = await Promise.allSettled([acceptInvitation(db(), brand, { ...first, name: "甲" }, token), acceptInvitation(db(), brand, { ...second, name: "乙" }, token)]);
        expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
        // The loser hears that someone else was first, not that the link is old.
        expect((results.find((result) => result.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ code: "family/invitation-taken" });
        expect(await db().selectFrom("family_member").select("user_id").where("family_id", "=", familyId).execute()).toHaveLength(2);
      }
    });

    it("one parent making two families at once ends in one", async () => {
      const owner = await user();
      const results = await Promise.allSettled([createFamily(db(), brand, owner, "一"), createFamily(db(), brand, owner, "二")]);
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      const failed = results.find((result) => result.status === "rejected");
      expect((failed as PromiseRejectedResult).reason).toMatchObject({ code: "family/already-in-family" });
      await expectConsistent(db());
    });

    it("both parents deleting their accounts at once leave no family behind", async () => {
      const { owner, parent, familyId } = await household();
      await addChild(db(), brand, owner, child, source);
      await Promise.all([deleteUserData(db(), owner.id), deleteUserData(db(), parent.id)]);
      expect(await db().selectFrom("family").select("id").where("id", "=", familyId).execute()).toEqual([]);
      expect(await db().selectFrom("family_member").select("user_id").where("family_id", "=", familyId).execute()).toEqual([]);
    });

    it("the owner handing ownership to a parent who leaves at that moment never leaves the family without an owner", async () => {
      for (let round = 0; round < 5; round += 1) {
        const { owner, parent } = await household();
        const results = await Promise.allSettled([transferOwnership(db(), brand, owner, parent.id), leaveFamily(db(), brand, parent)]);
        expect(results[1].status).toBe("fulfilled");
        const family = await familyOf(db(), owner.id);
        // Whichever ran first, the owner is still the owner (a handover to someone gone is refused).
        expect(family?.parents).toEqual([expect.objectContaining({ id: owner.id, role: "owner" })]);
        await expectConsistent(db());
      }
    });

    it("the owner deleting the account while removing the other parent ends with one owner or no family", async () => {
      for (let round = 0; round < 5; round += 1) {
        const { owner, parent, familyId } = await household();
        await Promise.allSettled([removeParent(db(), brand, owner, parent.id), deleteUserData(db(), owner.id)]);
        await expectConsistent(db());
        const left = await db().selectFrom("family_member").select(["user_id", "role"]).where("family_id", "=", familyId).execute();
        expect(left.some((member) => member.user_id === owner.id)).toBe(false);
        expect(left).toEqual(left.length ? [{ user_id: parent.id, role: "owner" }] : []);
      }
    });
  });
});
