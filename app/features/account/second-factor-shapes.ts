import type { FormResult } from "~/lib/form-result";

/** Shapes the two-step and passkey screens share with their server actions (no server code here). */

export interface TwoStepEnrolment {
  /** The otpauth:// address the app stores (posted back by the confirm form, to show it again after a typo). */
  totpURI: string;
  /** The otpauth:// address as a QR code (an SVG made on the server). */
  qrSvg: string;
  /** The same secret in groups of four, for typing into the app. */
  secret: string;
  /** Ten single-use backup codes, shown once. */
  backupCodes: string[];
}

/** A form's answer on /account/two-step: the enrolment to show, or a new set of backup codes (shown once). */
export type TwoStepOutcome = FormResult & { enrolment?: TwoStepEnrolment; backupCodes?: string[] };

export type TwoStepSettings = { account: null } | { account: { email: string; hasPassword: boolean; enabled: boolean } };

export interface PasskeyListItem {
  id: string;
  /** The credential's id (base64url), which the browser's password manager knows it by (the Signal API). */
  credentialId: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** Synced by its provider (iCloud Keychain, Google Password Manager) rather than kept on one device. */
  backedUp: boolean;
}

export type PasskeySettings =
  | { account: null }
  | { account: { email: string; userId: string; displayName: string; passkeys: PasskeyListItem[] } };
