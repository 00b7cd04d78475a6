/**
 * The WebAuthn Signal API (Chrome 132+, Safari 26): tells the browser's password manager which of this account's
 * passkeys the site still accepts and what the account is called now, so a passkey removed on 密碼金鑰 leaves the
 * phone's list and a renamed parent shows under the new name. Where the browser has no such API nothing happens;
 * the browser's answer is never waited for by the page and never shown.
 */
interface SignalApi {
  signalAllAcceptedCredentials?(options: { rpId: string; userId: string; allAcceptedCredentialIds: string[] }): Promise<void>;
  signalCurrentUserDetails?(options: { rpId: string; userId: string; name: string; displayName: string }): Promise<void>;
}

export interface PasskeyAccount {
  /** The account's id: registration gave the authenticator its UTF-8 bytes as the user handle (ways-in/passkey/passkey.server.ts). */
  userId: string;
  /** The account's name as registration gave it (its email, or its phone number for a phone account). */
  name: string;
  displayName: string;
}

const base64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

function signalApi(): SignalApi | undefined {
  return typeof PublicKeyCredential === "undefined" ? undefined : (PublicKeyCredential as unknown as SignalApi);
}

const userHandle = (account: PasskeyAccount) => base64url(new TextEncoder().encode(account.userId));

/** The account's current names, for the passkeys saved for it. */
export async function signalAccountDetails(account: PasskeyAccount): Promise<void> {
  await signalApi()
    ?.signalCurrentUserDetails?.({ rpId: location.hostname, userId: userHandle(account), name: account.name, displayName: account.displayName })
    .catch(() => undefined);
}

/** The passkeys still accepted (the rest leave the password manager) and the account's current names. */
export async function signalPasskeys(account: PasskeyAccount, credentialIds: string[]): Promise<void> {
  await Promise.all([
    signalApi()
      ?.signalAllAcceptedCredentials?.({ rpId: location.hostname, userId: userHandle(account), allAcceptedCredentialIds: credentialIds })
      .catch(() => undefined),
    signalAccountDetails(account),
  ]);
}
