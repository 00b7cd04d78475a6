// The account security screen's data and forms, shared by its server work and its components.
import type { DeviceSession, PasswordPolicy } from "~/features/auth";

/** The forms of the account security screen, named by the `intent` field each one posts. */
export type AccountSecurityIntent = "change-password" | "send-password-link" | "end-device" | "end-other-devices" | "not-me";

/** What the account security screen shows: a visitor or a guest is asked to sign in or sign up. */
export type AccountSecurity =
  | { account: null; guest: boolean }
  | { account: { email: string | null; phoneNumber: string | null; hasPassword: boolean; devices: DeviceSession[]; activity: ActivityItem[] }; guest: false; policy: PasswordPolicy };

/** One row of the account's own security record, as 帳號安全 lists it. */
export interface ActivityItem {
  id: number;
  /** ISO-8601; shown in Taiwan time. */
  at: string;
  /** What happened, in plain words. */
  what: string;
  refused: boolean;
  device: string | null;
  ip: string | null;
}
