import { betterAuth, type BetterAuthOptions } from "better-auth";
import { jwt } from "better-auth/plugins/jwt";
import type { DatabaseHandle } from "~/db/connection.server";
import type { ServerEnv } from "~/config/env.server";
import { enqueueMail } from "~/features/mail/outbox.server";
import { accountDeletedEmail, emailChangeEmail, passwordResetEmail, verificationEmail } from "~/features/mail/mail-templates.server";
import { hashPassword, inHashSlot, verifyPassword } from "./password-hash.server";
import { withFirebaseHashes } from "~/features/firebase-import/password-verify.server";
import { accountRateLimit, ipRateLimitOptions } from "./rate-limits.server";
import { auditLog, authLogging, recordAuditEvent } from "./auth-logging.server";
import type { RateLimitStore } from "~/services/rate-limiter.server";
import { clientIpHeader } from "~/services/client-ip.server";
import { identityEndpoint } from "./identity-endpoint.server";
import { deviceSessions } from "./device-sessions.server";
import { signInRules } from "./sign-in-rules.server";
import { cleanDisplayName } from "./display-name";
import { siteContextWords } from "./password-policy-context.server";
import { passwordPolicyFrom } from "./password-policy.server";
import { deleteUserData, deletionSummary } from "./user-data-hooks.server";
import { trustedOrigins } from "~/services/trusted-origins.server";
import { enabledSocialProviders, realSocialProviders } from "./social-providers.server";
import { redirectRule } from "./redirect-rule.server";
import { endPresentedSession, refuseSessionsPastAbsoluteAge, sessionOptions } from "./sessions.server";
import { singleUseLinks } from "./single-use-links.server";
import { promoteEditors } from "./roles.server";
import { recentSignIn } from "./recent-sign-in.server";
import { accountNotices, isEmailChangeToken } from "./account-notices.server";
import { emailChangeLinks } from "./email-change-links.server";
import { sendSecurityNotice } from "./security-notices.server";
import { signInMethods } from "./sign-in-methods.server";
import { knownDevices } from "./known-devices.server";
import { accountData } from "./account-data.server";
import { methodLabels, resetPasswordPage, type SocialProvider, verifyEmailPage } from "./auth-client";
import { twoStepSignIn } from "./two-step.server";
import { convertLegacyBackupCodes } from "./backup-codes.server";
import { whenMigrated } from "~/db/db.server";
import { getLogger } from "~/services/logger.server";
import { accountLock } from "./account-lock.server";
import { botCheck, botCheckSecret } from "./bot-check.server";
import { wayInPlugins } from "./way-in-plugins.server";
import { unprovenAccess, unprovenAccessHooks } from "./unproven-access.server";
import { authBasePath, authPaths } from "./auth-endpoints";

/** What a deletion took beyond the usual list, from `beforeDelete` to the mail `afterDelete` sends (one process). */
const deletedExtras = new Map<string, string[]>();

/** The sign-in layer's secret (a public site refuses to start without AUTH_SECRET: env.server.ts). */
const authSecret = (env: ServerEnv) => env.AUTH_SECRET ?? "development-secret-for-loopback-sites-only-0123456789";

const verificationLinkLifetime = 24 * 3600;

export interface DevIdentityProvider {
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  /** Where the provider sends the browser back: the sign-in layer's callback for provider `dev`. */
  callbackUrl: string;
}

export interface AuthDependencies {
  env: ServerEnv;
  database: DatabaseHandle;
  rateLimitStore: RateLimitStore;
  devIdentityProvider?: DevIdentityProvider;
}

/** Every Better Auth option of the site in one place; `createAuth` and the schema check share it. */
export function authOptions(deps: AuthDependencies) {
  const { env, database, rateLimitStore } = deps;
  const brand = { productName: env.PRODUCT_NAME, supportEmail: env.SUPPORT_EMAIL };
  const policy = passwordPolicyFrom(env);
  const sessions = sessionOptions(env);
  const unproven = unprovenAccessHooks(database.db, env);
  const ways = wayInPlugins(deps);

  const socialProviders: NonNullable<BetterAuthOptions["socialProviders"]> = Object.fromEntries(
    // Apple signs a client secret per call: its own plugin adds it (apple.server.ts).
    realSocialProviders(env).flatMap(({ id, clientId, clientSecret, scope }) => (clientSecret ? [[id, { clientId, clientSecret, scope }]] : [])),
  );

  return {
    appName: env.PRODUCT_NAME,
    baseURL: env.SITE_URL,
    basePath: authBasePath,
    secret: authSecret(env),
    // The app's own query builder: on SQLite both queue on one connection (decision 602), and a failed query is
    // noted against its request either way (503 when the database is away).
    database: { db: database.db, type: database.dialect, transaction: true },
    trustedOrigins: trustedOrigins(env),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: policy.minLength,
      maxPasswordLength: policy.maxLength,
      // Accounts imported from Firebase keep their old hash until it verifies once (app/features/firebase-import).
      password: { hash: hashPassword, verify: withFirebaseHashes(database.db, { verify: verifyPassword, hash: hashPassword, inHashSlot }) },
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 3600,
      sendResetPassword: async ({ user, token }) => {
        const link = `${env.SITE_URL}${resetPasswordPage}?token=${encodeURIComponent(token)}`;
        await enqueueMail(database.db, passwordResetEmail(brand, user.email, link));
      },
      onPasswordReset: async ({ user }) => sendSecurityNotice(database.db, env, { kind: "password-changed", to: user.email }),
    },
    emailVerification: {
      sendOnSignUp: true,
      expiresIn: verificationLinkLifetime,
      sendVerificationEmail: async ({ user, token }) => {
        const link = `${env.SITE_URL}${verifyEmailPage}?token=${encodeURIComponent(token)}&email=${encodeURIComponent(user.email)}`;
        // The same link confirms a new address (the email change); the mail says which it is.
        const template = isEmailChangeToken(token) ? emailChangeEmail : verificationEmail;
        await enqueueMail(database.db, template(brand, user.email, link));
      },
    },
    socialProviders,
    // Only a verified address may join an existing account by it. Google and the development provider vouch for
    // every address they send; Apple's ID token says so per address (`email_verified`, a string: "false" is not
    // verified, apple.server.ts; its relay addresses are), so Apple is not trusted by name; Facebook and LINE may
    // hand over unverified addresses: each of these links only when the email is marked verified.
    // Linking from the account screen (signed in, recently) may bring a provider account with another address.
    // A provider that vouches for the address may also join an account whose address was never verified: that is
    // the owner proving it, and everything set before the proof ends (unproven-access.server.ts). Better Auth's
    // default refuses it, which locks the owner out of an account someone else opened with her address.
    account: {
      accountLinking: { enabled: true, trustedProviders: ["google", "dev"], allowDifferentEmails: true, requireLocalEmailVerified: false },
    },
    // Removing a sign-in method goes through /sign-in-methods/remove (the last one stays, even under a race).
    // A way in's plugin endpoints the site does not offer come from its entry (the phone's password per number).
    disabledPaths: [authPaths.unlinkAccount, ...ways.switchedOff],
    user: {
      // A new address is used only once the link mailed to it is opened (recent-sign-in guarded).
      changeEmail: { enabled: true },
      additionalFields: {
        // Set only on the server (EDITOR_EMAILS, `npm run user:role`); never from a sign-up or profile body.
        role: { type: "string", required: false, defaultValue: "user", input: false },
        // The guest's column, as its plugin (anonymous) declares it: the way-in plugins come as plain plugins
        // (way-in-plugins.server.ts), so the session's type learns the field here.
        isAnonymous: { type: "boolean", required: false, defaultValue: false, input: false },
      },
      deleteUser: {
        enabled: true,
        beforeDelete: async (user) => {
          // What goes beyond the usual list, for the mail after (the family, its children, the phone number, passkeys).
          deletedExtras.set(user.id, await deletionSummary(database.db, user.id, "went"));
          await deleteUserData(database.db, user.id);
        },
        // The confirmation the stores ask for; guests have no address to tell (`…@guest.invalid`).
        afterDelete: async (user) => {
          const went = deletedExtras.get(user.id) ?? [];
          deletedExtras.delete(user.id);
          if ((user as { isAnonymous?: boolean | null }).isAnonymous || user.email.endsWith(".invalid")) return;
          await enqueueMail(database.db, accountDeletedEmail(brand, user.email, `${env.SITE_URL}/account-deletion`, went));
        },
      },
    },
    databaseHooks: {
      ...sessions.databaseHooks,
      account: {
        // A provider joined to an account that already had a way in (linked on the account screen, or by a
        // verified email at sign-in): tell the account.
        create: {
          // A provider joining an unverified account by its address: the proof ends what was set before it.
          before: async (account, endpoint) => void (await unproven.accountCreated(account, endpoint)),
          after: async (account) => {
            if (account.providerId === "credential") return;
            const owner = await database.db.selectFrom("user").select(["email"]).where("id", "=", account.userId).executeTakeFirst();
            const count = await database.db.selectFrom("account").select((eb) => eb.fn.countAll<number>().as("n")).where("userId", "=", account.userId).executeTakeFirst();
            if (!owner || Number(count?.n ?? 0) < 2) return;
            const detail = methodLabels[account.providerId as SocialProvider] ?? account.providerId;
            await sendSecurityNotice(database.db, env, { kind: "sign-in-method-added", to: owner.email, detail });
            await recordAuditEvent(database, { event: "way-in-added", userId: account.userId, detail: { provider: account.providerId } });
          },
        },
      },
      user: {
        // Names typed on our forms are checked by the sign-in rules; a provider's name is made fit to show here.
        create: {
          before: async (user) => ({ data: { ...user, name: cleanDisplayName(user.name ?? "") } }),
          after: async (user) => void (user.emailVerified && (await promoteEditors(database, env.EDITOR_EMAILS))),
        },
        update: {
          before: async (user, endpoint) => {
            const proven = await unproven.userUpdating(user, endpoint);
            const name = typeof user.name === "string" ? { name: cleanDisplayName(user.name) } : {};
            return proven || "name" in name ? { data: { ...user, ...proven, ...name } } : undefined;
          },
          after: async (user) => void (user.emailVerified && (await promoteEditors(database, env.EDITOR_EMAILS))),
        },
      },
    },
    session: sessions.session,
    rateLimit: ipRateLimitOptions(env, rateLimitStore),
    advanced: {
      ...sessions.advanced,
      ipAddress: { ipAddressHeaders: [clientIpHeader] },
      // Better Auth turns the origin check off under a test runner; the site wants it on everywhere.
      disableOriginCheck: false,
    },
    telemetry: { enabled: false },
    // Refused sign-ins are expected traffic, not something to log line by line; errors go to the request log.
    ...authLogging(),
    plugins: [
      accountLock(),
      // Before the per-account limits: a request without a solved check never spends someone's quota.
      botCheck(env, rateLimitStore, botCheckSecret(env, authSecret(env))),
      accountRateLimit(env, rateLimitStore),
      redirectRule(env.SITE_URL),
      singleUseLinks(database.db, verificationLinkLifetime),
      // Only the newest email-change link works, and a taken address is a clear refusal.
      emailChangeLinks(database.db),
      // Before the anonymous plugin: an unverified sign-in is refused before a guest's data would move.
      signInRules({ policy, siteWords: siteContextWords(env), siteUrl: env.SITE_URL }),
      // A sensitive change long after sign-in waits for the password (or another proof) again.
      recentSignIn(),
      accountNotices(database.db, env),
      signInMethods(database, env, () => enabledSocialProviders({ env, devIdentityProvider: deps.devIdentityProvider })),
      knownDevices(database, env),
      accountData(database.db),
      // Each way in's own plugins (way-in-plugins.server.ts), in the units' order.
      ...ways.plugins,
      // Before two-step sign-in: a proof that removed someone else's two-step asks for no code (unproven-access).
      unprovenAccess(),
      // After every one-factor way in (it turns their session into a pending code), before the pop-up plugin
      // (which answers the opener from the callback's final redirect).
      twoStepSignIn(database.db, env, authSecret(env)),
      identityEndpoint(),
      deviceSessions(),
      ...ways.afterTwoStep,
      // Short-lived signed tokens (GET /api/auth/token, keys at /api/auth/jwks) for file storage and the app.
      jwt({
        // Nothing reads the `set-auth-jwt` header a session lookup would sign (storage and the app take their tokens
        // from GET /api/auth/token): without it a session check saves the signing key's read and an ES256 signature.
        disableSettingJwtHeader: true,
        jwt: {
          expirationTime: "15m",
          // `sid` names the session: file storage refuses the token once that session has ended (sign-out,
          // password change or reset, device sign-out, operator sign-out, account deletion).
          definePayload: ({ user, session }) => ({ role: user.role ?? "user", isAnonymous: Boolean(user.isAnonymous), sid: session.id }),
        },
      }),
      // After the anonymous plugin, which needs the guest's session to move the guest's rows.
      endPresentedSession(),
      auditLog(database),
    ],
  } satisfies BetterAuthOptions;
}

export function createAuth(deps: AuthDependencies) {
  const auth = betterAuth(authOptions(deps));
  // Registered before any request can await the context, so no session is read before the check is in place.
  auth.$context.then((context) => refuseSessionsPastAbsoluteAge(context.internalAdapter, deps.env.SESSION_ABSOLUTE_DAYS)).catch(() => {});
  // Backup codes of the earlier format (one ciphertext) become salted hashes once, at start-up, after the
  // migrations (a fresh database has no table before them); until then they still work (backup-codes.server.ts).
  whenMigrated(deps.database)
    .then(() => convertLegacyBackupCodes(deps.database.db, authSecret(deps.env)))
    .catch((error: unknown) => getLogger().warn({ err: error }, "converting backup codes failed"));
  return auth;
}

export type Auth = ReturnType<typeof createAuth>;
