// The social providers' sign-in buttons and what each one says.
import type { SocialProvider } from "./auth-client";
// Loaded with the buttons, so the provider's on-demand import resolves at once and window.open still runs
// inside the click's user activation (Safari blocks pop-ups opened later).
import "./social-popup";

/** What each provider's sign-in button says; the self-test page lists the configured providers by it. */
export const socialButtonLabels: Record<SocialProvider, string> = {
  google: "使用 Google 登入",
  line: "使用 LINE 登入",
  facebook: "使用 Facebook 登入",
  dev: "使用開發測試帳號登入",
};

/** One button per configured provider; each opens the provider's pop-up. */
export function SocialButtons(props: { providers: SocialProvider[]; disabled: boolean; onSelect(provider: SocialProvider): void }) {
  if (!props.providers.length) return null;
  return (
    <div className="auth-actions">
      {props.providers.map((provider) => (
        <button key={provider} type="button" className="button" disabled={props.disabled} onClick={() => props.onSelect(provider)}>
          {socialButtonLabels[provider]}
        </button>
      ))}
    </div>
  );
}
