import type { PasswordPolicy } from "./password-policy";

/** One signed-in device as the account screen shows it. `id` names the session; it cannot be used as one. */
export interface DeviceSession {
  id: string;
  /** Browser and system in plain words with versions (`Android 14 上的 Chrome 126（Pixel 8）`), from the User-Agent. */
  device: string;
  /** Where its network is, when known without a lookup (`本機網路`); null otherwise. */
  place: string | null;
  createdAt: string;
  /** When the session last slid forward (at most once a day, see sessions.server.ts): a day's precision. */
  lastActiveAt: string;
  current: boolean;
}

/** The forms of the account security screen, named by the `intent` field each one posts. */
export type AccountSecurityIntent = "change-password" | "send-password-link" | "end-device" | "end-other-devices";

/** What the account security screen shows: a visitor or a guest is asked to sign in or sign up. */
export type AccountSecurity =
  | { account: null; guest: boolean }
  | { account: { email: string; hasPassword: boolean; devices: DeviceSession[] }; guest: false; policy: PasswordPolicy };
