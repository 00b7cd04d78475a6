import { betterAuth, type BetterAuthOptions } from "better-auth";
import { anonymous } from "better-auth/plugins/anonymous";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import { oauthPopup } from "better-auth/plugins";
import { jwt } from "better-auth/plugins/jwt";
import type { DatabaseHandle } from "~/db/connection.server";
import type { ServerEnv } from "~/config/env.server";
import type { MailTransport } from "~/features/mail/mail-transport.server";
import { passwordResetEmail, verificationEmail } from "~/features/mail/mail-templates.server";
import { hashPassword, verifyPassword } from "./password-hash.server";
import { accountRateLimit, ipRateLimitOptions } from "./rate-limits.server";
import type { RateLimitStore } from "~/services/rate-limit-store.server";
import { clientIpHeader } from "~/services/client-ip";
import { guestUpgrade } from "./guest-upgrade.server";
import { identityEndpoint } from "./identity-endpoint.server";
import { signInRules } from "./sign-in-rules.server";
import { passwordPolicyFrom } from "./password-policy.server";
import { deleteUserData, moveUserData } from "./user-data-hooks.server";
import { trustedOrigins } from "./trusted-origins.server";
import { promoteEditors } from "./roles.server";

export const guestDisplayName = "訪客用戶";

export interface DevIdentityProvider {
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface AuthDependencies {
  env: ServerEnv;
  database: DatabaseHandle;
  mail: MailTransport;
  rateLimitStore: RateLimitStore;
  devIdentityProvider?: DevIdentityProvider;
}

/** Sends in the background so the answer takes as long whether or not an email goes out; failures are logged. */
function sendInBackground(mail: MailTransport, message: Parameters<MailTransport["send"]>[0]) {
  mail.send(message).catch((error: unknown) => console.error("寄信失敗", error));
}

/** Every Better Auth option of the site in one place; `createAuth` and the schema check share it. */
export function authOptions(deps: AuthDependencies) {
  const { env, database, mail, rateLimitStore } = deps;
  const brand = { productName: env.PRODUCT_NAME, supportEmail: env.SUPPORT_EMAIL };
  const policy = passwordPolicyFrom(env);

  const socialProviders: NonNullable<BetterAuthOptions["socialProviders"]> = {};
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    socialProviders.google = { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET, scope: ["profile", "email"] };
  }
  if (env.FACEBOOK_CLIENT_ID && env.FACEBOOK_CLIENT_SECRET) {
    socialProviders.facebook = { clientId: env.FACEBOOK_CLIENT_ID, clientSecret: env.FACEBOOK_CLIENT_SECRET, scope: ["public_profile", "email"] };
  }
  if (env.LINE_CLIENT_ID && env.LINE_CLIENT_SECRET) {
    socialProviders.line = { clientId: env.LINE_CLIENT_ID, clientSecret: env.LINE_CLIENT_SECRET, scope: ["openid", "profile", "email"] };
  }

  return {
    appName: env.PRODUCT_NAME,
    baseURL: env.SITE_URL,
    basePath: "/api/auth",
    secret: env.AUTH_SECRET ?? "development-secret-for-loopback-sites-only-0123456789",
    database: database.raw,
    trustedOrigins: trustedOrigins(env),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: policy.minLength,
      maxPasswordLength: policy.maxLength,
      password: { hash: hashPassword, verify: verifyPassword },
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 3600,
      sendResetPassword: async ({ user, token }) => {
        const link = `${env.SITE_URL}/reset-password?token=${encodeURIComponent(token)}`;
        sendInBackground(mail, passwordResetEmail(brand, user.email, user.name, link));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      expiresIn: 24 * 3600,
      sendVerificationEmail: async ({ user, token }) => {
        const link = `${env.SITE_URL}/verify-email?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.email)}`;
        sendInBackground(mail, verificationEmail(brand, user.email, user.name, link));
      },
    },
    socialProviders,
    // Only providers that vouch for the email may join an existing account by it (Facebook and LINE may hand
    // over unverified addresses, so they link only when the email is marked verified).
    account: { accountLinking: { enabled: true, trustedProviders: ["google", "dev"] } },
    user: {
      additionalFields: {
        // Set only on the server (EDITOR_EMAILS, `npm run user:role`); never from a sign-up or profile body.
        role: { type: "string", required: false, defaultValue: "user", input: false },
      },
      deleteUser: {
        enabled: true,
        beforeDelete: async (user) => deleteUserData(database.db, user.id),
      },
    },
    databaseHooks: {
      user: {
        create: { after: async (user) => void (user.emailVerified && (await promoteEditors(database, env.EDITOR_EMAILS))) },
        update: { after: async (user) => void (user.emailVerified && (await promoteEditors(database, env.EDITOR_EMAILS))) },
      },
    },
    session: { expiresIn: 30 * 24 * 3600, updateAge: 24 * 3600 },
    rateLimit: ipRateLimitOptions(rateLimitStore),
    advanced: {
      useSecureCookies: env.SITE_URL.startsWith("https:"),
      defaultCookieAttributes: { sameSite: "lax", httpOnly: true },
      crossSubDomainCookies: env.COOKIE_DOMAIN ? { enabled: true, domain: env.COOKIE_DOMAIN } : undefined,
      ipAddress: { ipAddressHeaders: [clientIpHeader] },
      // Better Auth turns the origin check off under a test runner; the site wants it on everywhere.
      disableOriginCheck: false,
    },
    telemetry: { enabled: false },
    // Refused sign-ins are expected traffic, not something to log line by line.
    logger: { level: "error" },
    plugins: [
      accountRateLimit(rateLimitStore),
      // Before the anonymous plugin: an unverified sign-in is refused before a guest's data would move.
      signInRules(policy),
      anonymous({
        generateName: () => guestDisplayName,
        emailDomainName: "guest.invalid",
        onLinkAccount: async ({ anonymousUser, newUser }) =>
          moveUserData(database.db, anonymousUser.user.id, newUser.user.id),
      }),
      guestUpgrade(),
      identityEndpoint(),
      oauthPopup(),
      // Short-lived signed tokens (GET /api/auth/token, keys at /api/auth/jwks) for file storage and the app.
      jwt({
        jwt: {
          expirationTime: "15m",
          definePayload: ({ user }) => ({ role: user.role ?? "user", isAnonymous: Boolean(user.isAnonymous) }),
        },
      }),
      ...(deps.devIdentityProvider
        ? [
            genericOAuth({
              config: [
                {
                  providerId: "dev",
                  discoveryUrl: deps.devIdentityProvider.discoveryUrl,
                  clientId: deps.devIdentityProvider.clientId,
                  clientSecret: deps.devIdentityProvider.clientSecret,
                  scopes: ["openid", "profile", "email"],
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
    ],
  } satisfies BetterAuthOptions;
}

export function createAuth(deps: AuthDependencies) {
  return betterAuth(authOptions(deps));
}

export type Auth = ReturnType<typeof createAuth>;
