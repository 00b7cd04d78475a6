import type { BetterAuthOptions } from "better-auth";
import type { ServerEnv } from "~/config/env.server";
import { realSocialProviders } from "./social-providers.server";

/** The providers Better Auth signs in with by itself: each one configured with its client secret. */
export function socialProviderOptions(env: ServerEnv): NonNullable<BetterAuthOptions["socialProviders"]> {
  return Object.fromEntries(
    // Apple signs a client secret per call: its own plugin adds it (apple.server.ts).
    realSocialProviders(env).flatMap(({ id, clientId, clientSecret, scope }) => (clientSecret ? [[id, { clientId, clientSecret, scope }]] : [])),
  );
}

/**
 * Only a verified address may join an existing account by it. Google and the development provider vouch for
 * every address they send; Apple's ID token says so per address (`email_verified`, a string: "false" is not
 * verified, apple.server.ts; its relay addresses are), so Apple is not trusted by name; Facebook and LINE may
 * hand over unverified addresses: each of these links only when the email is marked verified.
 * Linking from the account screen (signed in, recently) may bring a provider account with another address.
 * A provider that vouches for the address may also join an account whose address was never verified: that is
 * the owner proving it, and everything set before the proof ends (unproven-access.server.ts). Better Auth's
 * default refuses it, which locks the owner out of an account someone else opened with her address.
 */
export function accountLinkingOptions() {
  return {
    accountLinking: { enabled: true, trustedProviders: ["google", "dev"], allowDifferentEmails: true, requireLocalEmailVerified: false },
  } satisfies BetterAuthOptions["account"];
}
