import { authPaths, type AuthError, type SocialProvider } from "./auth-client";
import { type AuthErrorCode, authError } from "./auth-error-messages";
import { authBasePath } from "./auth-paths";

/** What Better Auth's oauth-popup completion page posts to its opener. */
const popupMessageType = "better-auth:oauth-popup";
/** The original's pop-up timing: a closed pop-up counts as "closed by the user" after 8 s without a result. */
export const popupClosedGraceMs = 8_000;

let pending: { cancel(): void } | undefined;

/** The catalogue code for the error the pop-up reports (Better Auth's OAuth error codes, lower case). */
export function popupErrorCode(code: string | undefined): AuthErrorCode {
  if (code === "access_denied") return "auth/cancelled-popup-request";
  // The email already belongs to an account this provider may not be linked to (e.g. a password account).
  if (code === "account_not_linked") return "auth/account-exists-with-different-credential";
  // The account has two-step sign-in: the opener goes on to the code page (two-step.server.ts).
  if (code === "two_step_required") return "auth/two-step-required";
  return "auth/operation-not-allowed";
}

/**
 * Signs in through a provider in a pop-up. The pop-up runs the whole OAuth flow on the auth origin and ends
 * on a page that posts `{ type, nonce, error? }` back (the server takes the session token out of it); messages from any other origin or with another
 * nonce are ignored. The session cookie is set in the pop-up, so the caller just reloads the session.
 */
export function signInWithPopup(provider: SocialProvider, authOrigin: string): Promise<void> {
  // A new request cancels the one still open, as the original's SDK does.
  pending?.cancel();
  const nonce = crypto.randomUUID();
  const start = new URL(`${authBasePath}${authPaths.oauthPopupStart}`, authOrigin);
  start.search = new URLSearchParams({
    provider,
    popupOrigin: window.location.origin,
    popupNonce: nonce,
    callbackURL: `${window.location.origin}/`,
    errorCallbackURL: `${window.location.origin}/login`,
  }).toString();
  const popup = window.open(start.toString(), "task-hero-sign-in", "popup,width=500,height=640");
  if (!popup) return Promise.reject(authError("auth/popup-blocked"));

  return new Promise<void>((resolve, reject) => {
    let closedTimer: ReturnType<typeof setTimeout> | undefined;
    const finish = (error?: AuthError) => {
      window.removeEventListener("message", onMessage);
      clearInterval(watch);
      clearTimeout(closedTimer);
      pending = undefined;
      if (error) reject(error);
      else resolve();
    };
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: string; nonce?: string; error?: { code?: string } } | null;
      if (event.origin !== authOrigin || data?.type !== popupMessageType || data.nonce !== nonce) return;
      finish(data.error ? authError(popupErrorCode(data.error.code)) : undefined);
    };
    // A late result still wins: the listener stays until the grace period after closing ends.
    const watch = setInterval(() => {
      if (popup.closed && !closedTimer) {
        closedTimer = setTimeout(() => finish(authError("auth/popup-closed-by-user")), popupClosedGraceMs);
      }
    }, 300);
    window.addEventListener("message", onMessage);
    pending = {
      cancel: () => {
        popup.close();
        finish(authError("auth/cancelled-popup-request"));
      },
    };
  });
}
