import {
  WebAuthnAbortService,
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import { AuthError, authPaths, authRequest, authError } from "~/features/auth";

/**
 * The browser half of passkeys (@simplewebauthn/browser around the WebAuthn API). Loaded only by the screens that
 * use it (a dynamic import from /login and /account/passkeys), never by the home page.
 */

/** The browser's refusals in catalogue terms: the person cancelled, or the browser cannot do it. */
function asAuthError(error: unknown): AuthError {
  if (error instanceof AuthError) return error;
  const name = (error as { name?: string } | null)?.name;
  if (name === "NotAllowedError" || name === "AbortError") return authError("auth/passkey-cancelled");
  if (name === "NotSupportedError" || name === "SecurityError") return authError("auth/passkey-unsupported");
  return authError("auth/invalid-passkey");
}

/** Where the browser cannot use passkeys (see passkey-support.ts). */
export { passkeysSupportedHere as passkeysSupported } from "./passkey-support";

/**
 * Signs in with a passkey. With `autofill`, waits for the person to pick one from the email field's suggestions
 * (conditional mediation) and resolves false where the browser has no such autofill; otherwise asks at once.
 * A browser that claims the autofill and then refuses it (Chromium's headless shell does) is one without it too:
 * nobody asked for a passkey yet, so no message appears above the button and nothing on the card moves.
 */
export async function signInWithPasskey({ autofill = false } = {}): Promise<boolean> {
  if (!browserSupportsWebAuthn()) throw authError("auth/passkey-unsupported");
  if (autofill && !(await browserSupportsWebAuthnAutofill())) return false;
  const optionsJSON = await authRequest<PublicKeyCredentialRequestOptionsJSON>(authPaths.passkeySignInOptions, { body: {} });
  const response = await startAuthentication({ optionsJSON, useBrowserAutofill: autofill }).catch((error: unknown) => {
    const refusal = asAuthError(error);
    if (autofill && refusal.code === "auth/passkey-unsupported") return null;
    throw refusal;
  });
  if (!response) return false;
  await authRequest(authPaths.passkeySignInVerify, { body: { response } });
  return true;
}

/** Stops a waiting autofill request (before the button asks for a passkey itself, or when leaving the page). */
export const cancelPasskeyRequest = () => WebAuthnAbortService.cancelCeremony();

/** Creates a passkey for the signed-in account on this device (or the person's phone or security key). */
export async function addPasskey(name: string): Promise<void> {
  if (!browserSupportsWebAuthn()) throw authError("auth/passkey-unsupported");
  const optionsJSON = await authRequest<PublicKeyCredentialCreationOptionsJSON>(authPaths.passkeyRegisterOptions, { body: {} });
  const response = await startRegistration({ optionsJSON }).catch((error: unknown) => {
    throw asAuthError(error);
  });
  await authRequest(authPaths.passkeyRegisterVerify, { body: { response, ...(name.trim() ? { name: name.trim() } : {}) } });
}

/** The name a passkey the browser saved by itself gets (the person may rename it on 密碼金鑰). */
export const savedByBrowserName = "登入時自動建立";

/**
 * Right after a password sign-in: where the browser can (WebAuthn conditional create, Chrome 136+, Safari 18+), it
 * saves a passkey for the account by itself, in the password manager the person just signed in with, without a
 * dialog. Anywhere else, or when the browser declines (no password manager used, a passkey already there), nothing
 * happens and nothing is shown.
 */
export async function offerPasskeyAfterPassword(): Promise<void> {
  const capabilities = await (
    PublicKeyCredential as unknown as { getClientCapabilities?: () => Promise<Record<string, boolean>> }
  ).getClientCapabilities?.().catch(() => null);
  if (!capabilities?.conditionalCreate) return;
  const optionsJSON = await authRequest<PublicKeyCredentialCreationOptionsJSON>(authPaths.passkeyRegisterOptions, { body: {} });
  const response = await startRegistration({ optionsJSON, useAutoRegister: true });
  await authRequest(authPaths.passkeyRegisterVerify, { body: { response, name: savedByBrowserName } });
}
