import type { SocialProvider } from "./auth-client";

/** The account's ways in, as the account screen and the copy of one's data show them (browser-safe). */
export type SignInProvider = "password" | SocialProvider;

export interface SignInMethod {
  /** The account row's id: what a removal posts. */
  id: string;
  provider: SignInProvider;
  linkedAt: string;
}

export interface SignInMethods {
  methods: SignInMethod[];
  /** Providers this site offers that the account has not linked. */
  linkable: SocialProvider[];
  /** How many passkeys the account has: ways in too, so a method may go while a passkey stays. */
  passkeys: number;
}

export const methodLabels: Record<SignInProvider, string> = {
  password: "電子郵件與密碼",
  google: "Google",
  facebook: "Facebook",
  line: "LINE",
  dev: "開發測試帳號",
};
