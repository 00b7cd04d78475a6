// The account security screen's data and forms, shared by its server work and its components.
import type { DeviceSession } from "~/features/auth/auth-client";
import type { PasswordPolicy } from "~/features/auth/password-policy";

/** The forms of the account security screen, named by the `intent` field each one posts. */
export type AccountSecurityIntent = "change-password" | "send-password-link" | "end-device" | "end-other-devices";

/** What the account security screen shows: a visitor or a guest is asked to sign in or sign up. */
export type AccountSecurity =
  | { account: null; guest: boolean }
  | { account: { email: string; hasPassword: boolean; devices: DeviceSession[] }; guest: false; policy: PasswordPolicy };
