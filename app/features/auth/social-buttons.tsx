import type { SocialProvider } from "./auth-types";
// Loaded with the buttons, so the provider's on-demand import resolves at once and window.open still runs
// inside the click's user activation (Safari blocks pop-ups opened later).
import "./social-popup";
import { socialButtonLabels } from "./social-labels";


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
