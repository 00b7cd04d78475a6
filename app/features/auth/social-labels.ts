import type { SocialProvider } from "./auth-types";

/** What each provider's sign-in button says; the self-test page lists the configured providers by it. */
export const socialButtonLabels: Record<SocialProvider, string> = {
  google: "使用 Google 登入",
  line: "使用 LINE 登入",
  facebook: "使用 Facebook 登入",
  dev: "使用開發測試帳號登入",
};
