import type { FormResult } from "~/lib/form-result";
import type { FamilyView } from "./family-rules";

/** What the family screens receive from their loaders and actions (browser-safe shapes). */
export interface OpenInvitationView {
  id: string;
  email: string | null;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
}

/** A child's tablet, as every parent of its family sees it; `id` is its grant's id. */
export interface ChildDeviceView {
  id: string;
  childName: string;
  appName: string;
  approvedBy: string;
  joinedAt: string;
}

export interface FamilyScreen {
  signedIn: boolean;
  viewerId: string | null;
  family: FamilyView | null;
  invitations: OpenInvitationView[];
  devices: ChildDeviceView[];
  consent: { version: string; lines: string[] };
  birthYears: { min: number; max: number };
  notice: string | null;
}

/** A family form's answer: the form kit's result, and the new invitation's link to share. */
export interface FamilyResult extends FormResult {
  invitationLink?: string;
}

export interface JoinScreen {
  token: string;
  returnTo: string;
  signedIn: boolean;
  invitation: { familyName: string; inviterName: string; expiresAt: string } | null;
  refusal: string | null;
}
