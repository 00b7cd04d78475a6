import { useEffect, useState, useSyncExternalStore } from "react";
import { AuthError, authError } from "~/features/auth";
import { FormAlert } from "~/components/form/form";
import { passkeysSupportedHere } from "./passkey-support";

/** The passkey client is its own chunk, fetched after the login screen is up (never part of the home page). */
const passkeyClient = () => import("./passkey-client");

/**
 * Passkey sign-in on /login: the browser offers the account's passkeys in the email field's autofill (conditional
 * mediation, `autocomplete="username webauthn"`), and a button asks for one directly. Passkeys need JavaScript
 * (the browser's WebAuthn API): the server's HTML holds the button disabled, so the screen keeps its layout when the
 * scripts arrive (no layout shift). Where the browser cannot use passkeys (no WebAuthn API, as in Android WebViews,
 * or a site opened by its IP address) an inline script in the head hides it before it is ever painted, and
 * the first render after hydration takes it away: nothing moves there either.
 */
export function PasskeySignIn({ onSignedIn, disabled }: { onSignedIn(): void; disabled: boolean }) {
  // Unknown until the page runs its scripts (always unknown without JavaScript): the server's HTML holds the button.
  const supported = useSyncExternalStore(subscribeToNothing, passkeysSupportedHere, () => null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!supported) return;
    let live = true;
    void passkeyClient().then(async (client) => {
      if (!live) return;
      const signedIn = await client.signInWithPasskey({ autofill: true }).catch((failure: unknown) => {
        // Leaving the page, or the button taking over, cancels the waiting request: not an error to show.
        if (live && failure instanceof AuthError && failure.code !== "auth/passkey-cancelled") setError(failure.message);
        return false;
      });
      if (live && signedIn) onSignedIn();
    });
    return () => {
      live = false;
      void passkeyClient().then((client) => client.cancelPasskeyRequest());
    };
  }, [onSignedIn, supported]);

  if (supported === false) return null;
  const ask = () => {
    setError(null);
    setPending(true);
    void passkeyClient()
      .then(async (client) => {
        client.cancelPasskeyRequest();
        await client.signInWithPasskey();
        onSignedIn();
      })
      .catch((failure: unknown) => setError(failure instanceof AuthError ? failure.message : authError("auth/invalid-passkey").message))
      .finally(() => setPending(false));
  };
  return (
    <div className="auth-actions passkey-sign-in">
      <FormAlert message={error} />
      <button type="button" className="button" disabled={disabled || pending || !supported} onClick={ask}>
        {pending ? "等待密碼金鑰…" : "使用密碼金鑰登入"}
      </button>
      <noscript>
        <p className="auth-legal">使用密碼金鑰登入需要開啟 JavaScript，其他登入方式都可以直接使用。</p>
      </noscript>
    </div>
  );
}

const subscribeToNothing = () => () => {};
