import { data, redirect } from "react-router";
import type { z } from "zod";
import { getViewer, type Viewer } from "~/features/auth/index.server";
import { clientIpHeader } from "~/services/client-ip.server";
import { invalidForm, readForm, unknownIntent } from "~/services/form.server";
import { formRefusal, guardedForm } from "~/services/request-guard.server";
import type { FormResult } from "~/lib/form-result";
import { consentNotice } from "./family-consent-notice.server";
import { childDevicesFor, childDevicesOf, endChildDevice } from "./family-devices.server";
import { familyContext } from "./family-context.server";
import { acceptInvitation, cancelInvitation, createInvitation, joinPath, openInvitations, previewInvitation } from "./family-invitations.server";
import { familyPagePath } from "./family-notices.server";
import type { FamilyScreen, FamilyResult, JoinScreen } from "./family-screen-types";
import { addChild, createFamily, deleteFamily, FamilyRefusal, familyOf, leaveFamily, removeChild, removeParent, renameFamily, transferOwnership, updateChild } from "./family-store.server";
import { birthYearRange, childIdSchema, childSchema, deviceIdSchema, consentSchema, familyNameSchema, inviteSchema, invitationIdSchema, parentIdSchema } from "./family-rules";

/** The loaders and actions of the family screens (/account/family and its invitation page); routes hand over. */

const doneNotices: Record<string, string> = { joined: "你已加入家庭。", left: "你已離開家庭。", deleted: "家庭已刪除。" };

/** A parent who can have a family: signed in with an account (a guest has no address to be reached at). */
async function parentOf(request: Request): Promise<Viewer | null> {
  if (!request.headers.get("cookie")) return null;
  const viewer = await getViewer(request);
  return viewer && !viewer.isAnonymous ? viewer : null;
}

export async function loadFamilyScreen(request: Request): Promise<FamilyScreen> {
  const viewer = await parentOf(request);
  const done = new URL(request.url).searchParams.get("done") ?? "";
  const notice = doneNotices[done] ?? null;
  if (!viewer) return { signedIn: false, family: null, invitations: [], devices: [], viewerId: null, consent: consentNotice, birthYears: birthYearRange(), notice };
  const { db } = familyContext();
  const family = await familyOf(db, viewer.id);
  return {
    signedIn: true,
    viewerId: viewer.id,
    family,
    invitations: family ? await openInvitations(db, family.id) : [],
    devices: family ? await childDevicesOf(db, family.id) : [],
    consent: consentNotice,
    birthYears: birthYearRange(),
    notice,
  };
}

/** 帳號安全's list of the viewer's family's child devices (empty for a visitor, a guest, or a parent without a family). */
export async function loadChildDevices(request: Request) {
  const viewer = await parentOf(request);
  return viewer ? childDevicesFor(familyContext().db, viewer.id) : [];
}

type Work = (viewer: Viewer, fields: Record<string, string>, request: Request) => Promise<FamilyResult | Response>;

function parsed<S extends z.ZodType>(schema: S, fields: Record<string, string>, intent: string, keep: Record<string, string>, then: (value: z.output<S>) => Promise<FamilyResult | Response>) {
  const result = schema.safeParse(fields);
  return result.success ? then(result.data) : Promise.resolve(invalidForm(result.error, keep, intent) as unknown as Response);
}

const done = (intent: string, notice: string, extra: Partial<FamilyResult> = {}): FamilyResult => ({ intent, done: true, notice, ...extra });
const childValues = (fields: Record<string, string>) => ({ name: fields.name ?? "", avatar: fields.avatar ?? "", birthYear: fields.birthYear ?? "" });

const intents: Record<string, Work> = {
  "create-family": (viewer, fields) =>
    parsed(familyNameSchema, fields, "create-family", { name: fields.name ?? "" }, async ({ name }) => {
      const { db, brand } = familyContext();
      await createFamily(db, brand, viewer, name);
      return done("create-family", `已建立家庭「${name}」。`);
    }),
  rename: (viewer, fields) =>
    parsed(familyNameSchema, fields, "rename", { name: fields.name ?? "" }, async ({ name }) => {
      const { db, brand } = familyContext();
      await renameFamily(db, brand, viewer, name);
      return done("rename", `家庭名稱已改為「${name}」。`);
    }),
  transfer: (viewer, fields) =>
    parsed(parentIdSchema, fields, "parents", {}, async ({ parentId }) => {
      const { db, brand } = familyContext();
      await transferOwnership(db, brand, viewer, parentId);
      return done("parents", "已把擁有者交給這位家長。");
    }),
  "remove-parent": (viewer, fields) =>
    parsed(parentIdSchema, fields, "parents", {}, async ({ parentId }) => {
      const { db, brand } = familyContext();
      await removeParent(db, brand, viewer, parentId);
      return done("parents", "已把這位家長移出家庭。");
    }),
  leave: async (viewer) => {
    const { db, brand } = familyContext();
    await leaveFamily(db, brand, viewer);
    return redirect(`${familyPagePath}?done=left`, 303);
  },
  "delete-family": async (viewer) => {
    const { db, brand } = familyContext();
    await deleteFamily(db, brand, viewer);
    return redirect(`${familyPagePath}?done=deleted`, 303);
  },
  "add-child": (viewer, fields, request) =>
    parsed(childSchema().and(consentSchema), fields, "add-child", childValues(fields), async (child) => {
      const { db, brand } = familyContext();
      const source = { ipAddress: request.headers.get(clientIpHeader), userAgent: request.headers.get("user-agent") };
      await addChild(db, brand, viewer, child, source);
      return done("add-child", `已新增「${child.name}」，並記錄你的同意。`);
    }),
  "edit-child": (viewer, fields) =>
    parsed(childSchema().and(childIdSchema), fields, `edit-child:${fields.childId ?? ""}`, childValues(fields), async (child) => {
      const { db, brand } = familyContext();
      await updateChild(db, brand, viewer, child.childId, child);
      return done("children", `已更新「${child.name}」的資料。`);
    }),
  "remove-child": (viewer, fields) =>
    parsed(childIdSchema, fields, "children", {}, async ({ childId }) => {
      const { db, brand } = familyContext();
      await removeChild(db, brand, viewer, childId);
      return done("children", "已刪除孩子的資料與同意紀錄。");
    }),
  "end-device": (viewer, fields) =>
    parsed(deviceIdSchema, fields, "devices", {}, async ({ deviceId }) => {
      const { db, brand } = familyContext();
      await endChildDevice(db, brand, viewer, deviceId);
      return done("devices", "已結束這台平板的登入，它不能再以孩子的身分使用。");
    }),
  invite: (viewer, fields) =>
    parsed(inviteSchema, fields, "invite", { email: fields.email ?? "" }, async ({ email }) => {
      const { db, brand } = familyContext();
      const invitation = await createInvitation(db, brand, viewer, email || null);
      const notice = email ? `邀請已寄到 ${email}。也可以用 LINE 傳送或複製下面的連結。` : "邀請連結已建立，請用 LINE 傳送或複製給另一位家長。";
      return done("invite", notice, { invitationLink: invitation.link });
    }),
  "cancel-invitation": (viewer, fields) =>
    parsed(invitationIdSchema, fields, "invitations", {}, async ({ invitationId }) => {
      const { db, brand } = familyContext();
      await cancelInvitation(db, brand, viewer, invitationId);
      return done("invitations", "邀請已取消，那個連結不能再使用。");
    }),
};

/** Every form of /account/family, told apart by `intent`; a refusal of the family's rules comes back to the form. */
export function familyAction(request: Request) {
  return guardedForm(request, async () => {
    const viewer = await parentOf(request);
    if (!viewer) return formRefusal(401, "sign-in-required", "請先登入。");
    const fields = await readForm(request);
    const work = intents[fields.intent ?? ""];
    if (!work) return unknownIntent();
    const answer = await refusalsAnswered(() => work(viewer, fields, request), fields.intent ?? "");
    if ("refusal" in answer) return answer.refusal;
    return answer.value instanceof Response ? answer.value : data<FamilyResult>(answer.value);
  });
}

/**
 * The work's value, or the family's refusal as the form kit's answer. Kept apart by shape, not by `instanceof
 * Response`: a refusal is React Router's `data()`, not a Response, and was once taken for a success.
 */
async function refusalsAnswered<T>(work: () => Promise<T>, intent: string): Promise<{ value: T } | { refusal: ReturnType<typeof formRefusal> }> {
  try {
    return { value: await work() };
  } catch (error) {
    if (error instanceof FamilyRefusal) return { refusal: formRefusal(error.status, error.code, error.message, { intent }) };
    throw error;
  }
}

/** /account/family/join?token=…: the invitation's family and inviter, or why the link cannot be used. */
export async function loadJoinScreen(request: Request): Promise<JoinScreen> {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const viewer = await parentOf(request);
  const returnTo = `${joinPath}?token=${encodeURIComponent(token)}`;
  try {
    const invitation = await previewInvitation(familyContext().db, token);
    return { token, returnTo, signedIn: Boolean(viewer), invitation, refusal: null };
  } catch (error) {
    if (!(error instanceof FamilyRefusal)) throw error;
    return { token, returnTo, signedIn: Boolean(viewer), invitation: null, refusal: error.message };
  }
}

export function joinAction(request: Request) {
  return guardedForm(request, async () => {
    const viewer = await parentOf(request);
    if (!viewer) return formRefusal(401, "sign-in-required", "請先登入或註冊，再接受邀請。");
    const fields = await readForm(request);
    const { db, brand } = familyContext();
    const answer = await refusalsAnswered(() => acceptInvitation(db, brand, viewer, fields.token ?? ""), "join");
    // Only a join that happened says 「你已加入家庭。」; a refusal says why and what to do (issue 38).
    return "refusal" in answer ? answer.refusal : redirect(`${familyPagePath}?done=joined`, 303);
  });
}

export type { FormResult };
