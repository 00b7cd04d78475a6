import { authEndpoint } from "./auth-endpoints";

/**
 * How a site session was signed in, as OpenID `amr` values (RFC 8176), kept on the session row (`session.amr`)
 * when it is made, and the `acr` the app's ID token carries for it (docs/app-integration.md, decision 190).
 * A session is made by the endpoint that checked the proof, so the endpoint's row says which proof it was (its
 * `proves`, a rule every way in decides):
 * - a password (sign-in, or confirming identity with it): `pwd`;
 * - a code from the authenticator app or a backup code after the first step (two-step sign-in), or a code
 *   confirming identity while signed in: `otp` `mfa`;
 * - a text-message code: `sms`;
 * - a passkey: `hwk` (a key that never leaves its device) or `swk` (a synced one), `user` (the browser asks for the
 *   fingerprint, face or PIN: user verification is required) and `mfa` — a device and its unlock are two factors.
 * A social account, an email link or a guest session has no registered value: its `amr` is empty.
 */

/** What a passkey sign-in proves: the key's kind (synced or bound to its device), the user's unlock, two factors. */
export const passkeyAmr = (backedUp: boolean) => [backedUp ? "swk" : "hwk", "user", "mfa"].join(" ");

/** The `amr` of a session made by the endpoint at `path`, space-separated; undefined when no registered value fits. */
export function amrOfPath(path: string | undefined): string | undefined {
  return authEndpoint(path)?.proves?.join(" ");
}

/** The authentication context classes an app may ask for (`acr_values`) and read (`acr`). */
export const acrValues = {
  /** Any one way in. */
  basic: "urn:taskhero:acr:basic",
  /** Two factors in this sign-in: a password or other first step and a code, or a passkey with its unlock. */
  twoStep: "urn:taskhero:acr:mfa",
} as const;

/** The session's `amr` list (stored space-separated) and the `acr` it meets. */
export function signInProof(stored: string | null | undefined): { amr: string[]; acr: string } {
  const amr = (stored ?? "").split(" ").filter(Boolean);
  return { amr, acr: amr.includes("mfa") ? acrValues.twoStep : acrValues.basic };
}
