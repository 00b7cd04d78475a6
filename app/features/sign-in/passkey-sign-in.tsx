import { useEffect, useState } from "react";
import { AuthError } from "~/features/auth/auth-client";
import { FormAlert } from "~/components/form/form";
import { authError } from "~/features/auth/auth-error-messages";

/** The passkey client is its own chunk, fetched after the login screen is up (never part of the home page). */
const passkeyClient = () => import("./passkey-client");

/**
 * Passkey sign-in on /login: the browser offers the account's passkeys in the email field's autofill (conditional
 * mediation, `autocomplete="username webauthn"`), and a button asks for one directly. Passkeys need JavaScript
 * (the browser's WebAuthn API), so nothing shows before hydration; every other way in works without it.
 */
export function PasskeySignIn({ onSignedIn, disabled }: { onSignedIn(): void; disabled: boolean }) {
  const [supported, setSupported] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void passkeyClient().then(async (client) => {
      if (!live || !client.passkeysSupported()) return;
      setSupported(true);
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
  }, [onSignedIn]);

  if (!supported) return null;
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
    <div className="auth-actions">
      <FormAlert message={error} />
      <button type="button" className="button" disabled={disabled || pending} onClick={ask}>
        {pending ? "等待密碼金鑰…" : "使用密碼金鑰登入"}
      </button>
    </div>
  );
}
