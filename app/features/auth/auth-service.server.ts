import { getEnv, type ServerEnv } from "~/config/env.server";
import { getDatabase, whenMigrated } from "~/db/db.server";
import type { DatabaseHandle } from "~/db/connection.server";
import { smsGateway } from "~/features/mail/sms-gateways.server";
import { mailboxTransport, smtpTransport, type MailTransport } from "~/features/mail/mail-transport.server";
import { startMailSender, type MailSender } from "~/features/mail/outbox.server";
import { getLogger } from "~/services/logger.server";
import { createAuth, type Auth, type DevIdentityProvider } from "./auth.server";
import { pageSessionReader, type CookieHeaders, type SessionAnswer } from "./session-read.server";
import { createRateLimitStore, sharedRateLimitStore, type RateLimitStore } from "~/services/rate-limiter.server";
import { passwordPolicyFrom } from "./password-policy.server";
import { enabledSocialProviders, realSocialProviders } from "./social-providers.server";
// The host lets the site's forms lead to the providers' sign-in (the CSP's form-action).
export { socialSignInOrigins } from "./social-providers.server";
import { promoteEditors } from "./roles.server";
import { isRole } from "./roles";
import type { SocialProvider } from "./auth-client";
import type { PasswordPolicy } from "./password-policy";
import { authBasePath, authPaths } from "./auth-endpoints";
import { registerUserDataHandler } from "./user-data-hooks.server";
import { appleKeys } from "./apple.server";
import { appleTokenUserData, startAppleRevocations } from "./apple-revocations.server";

/** Everything the sign-in layer runs on, built once per process (or once per test server). */
export interface AuthService {
  env: ServerEnv;
  database: DatabaseHandle;
  auth: Auth;
  /** The session behind a page load's headers, as `auth.api.getSession` answers it (session-read.server.ts). */
  readSession(headers: Headers): Promise<SessionAnswer>;
  /**
   * The same read without handing over and without waiting: undefined where Better Auth has something to write or
   * decide (a session ended, past its lifetime, due to slide, or not remembered), which only `readSession` then does,
   * and where the read would wait for the database or failed (for a caller whose other way reads with a deadline).
   */
  readSessionUnlessDue(headers: CookieHeaders): Promise<SessionAnswer | undefined>;
  /**
   * `readSessionUnlessDue` for a Cookie header without a promise, where nothing at all would wait (SQLite's
   * connection free, Better Auth's context at hand since an earlier read): undefined also otherwise.
   */
  readSessionAtOnce(cookies: string): SessionAnswer | undefined;
  mail: MailTransport;
  /** Delivers the mail outbox through `mail`; stopped (and drained) by close(). */
  mailSender: MailSender;
  rateLimitStore: RateLimitStore;
  passwordPolicy: PasswordPolicy;
  /** The development mailbox and identity provider exist only without SMTP / providers on a loopback site. */
  devMailbox: boolean;
  devIdentityProvider: DevIdentityProvider | undefined;
  /** The sign-in buttons to show: the real providers, or on a development site the development provider. */
  socialProviders: SocialProvider[];
  /** Makes the verified accounts of EDITOR_EMAILS editors (at start-up, and after each sign-up and verification). */
  promoteEditors(): Promise<number>;
  close(): Promise<void>;
}

export interface AuthServiceOptions {
  env: ServerEnv;
  database: DatabaseHandle;
  /** Tests give each server its own Redis key prefix so their counters never meet. */
  rateLimitPrefix?: string;
  /** The site's shared store; without it the service makes (and closes) a store of its own. */
  rateLimitStore?: RateLimitStore;
}

export const devIdentityClient = { clientId: "task-hero-site", clientSecret: "development-only-client-secret" };

/** The development identity provider: on a loopback site without any real provider configured. */
function devIdentityProviderFor(env: ServerEnv): DevIdentityProvider | undefined {
  return env.isLoopbackSite && realSocialProviders(env).length === 0
    ? {
        discoveryUrl: `${env.SITE_URL}/dev-oidc/.well-known/openid-configuration`,
        callbackUrl: `${env.SITE_URL}${authBasePath}${authPaths.callbackId.replace(":id", "dev")}`,
        ...devIdentityClient,
      }
    : undefined;
}

/**
 * What the sign-in screens show (social buttons, password rules), from the configuration alone. Their loaders also
 * run when the server renders them at start-up, before it listens, where starting the sign-in layer would look up
 * the development identity provider, which is not answering yet ("Discovery fetch failed").
 */
export function signInScreenSettings(): { providers: SocialProvider[]; policy: PasswordPolicy } {
  const env = getEnv();
  return { providers: enabledSocialProviders({ env, devIdentityProvider: devIdentityProviderFor(env) }), policy: passwordPolicyFrom(env) };
}

export function createAuthService({ env, database, rateLimitPrefix, rateLimitStore: given }: AuthServiceOptions): AuthService {
  const devMailbox = !env.SMTP_HOST && env.isLoopbackSite;
  const mail = env.SMTP_HOST
    ? smtpTransport({
        host: env.SMTP_HOST,
        port: env.SMTP_PORT,
        secure: env.SMTP_SECURE,
        user: env.SMTP_USER,
        password: env.SMTP_PASSWORD,
        from: env.MAIL_FROM ?? `${env.PRODUCT_NAME} <${env.SUPPORT_EMAIL}>`,
      })
    : mailboxTransport(database.db);
  const rateLimitStore = given ?? createRateLimitStore(env.REDIS_URL, rateLimitPrefix);
  const devIdentityProvider = devIdentityProviderFor(env);
  const auth = createAuth({ env, database, rateLimitStore, devIdentityProvider });
  // Text messages: SMS_PROVIDER's gateway, the development mailbox by default on a loopback site (docs/auth.md).
  const sms = smsGateway(env, database.db);
  const mailSender = startMailSender({ db: database.db, dialect: database.dialect, transport: mail, sms, logger: getLogger(), startWhen: whenMigrated(database), passive: env.WEB_CONCURRENCY_WORKER > 1 });
  // A deleted account's Apple tokens are revoked after the commit, retried until Apple takes them (one sender
  // per site, like the mail outbox's).
  registerUserDataHandler(appleTokenUserData);
  const apple = appleKeys(env);
  const appleRevocations = apple && env.WEB_CONCURRENCY_WORKER <= 1 ? startAppleRevocations({ db: database.db, keys: apple, logger: getLogger(), startWhen: whenMigrated(database) }) : undefined;
  const readPageSession = pageSessionReader(auth, database, env.SESSION_ABSOLUTE_DAYS);
  return {
    env,
    database,
    auth,
    readSession: async (headers) => {
      const read = await readPageSession.read(headers);
      return read === undefined ? auth.api.getSession({ headers }) : read;
    },
    readSessionUnlessDue: (headers) => readPageSession.read(headers, { waitless: true }),
    readSessionAtOnce: readPageSession.readAtOnce,
    mail,
    mailSender,
    rateLimitStore,
    passwordPolicy: passwordPolicyFrom(env),
    devMailbox,
    devIdentityProvider,
    socialProviders: enabledSocialProviders({ env, devIdentityProvider }),
    promoteEditors: () => promoteEditors(database, env.EDITOR_EMAILS),
    close: async () => {
      await mailSender.stop();
      await appleRevocations?.stop();
      if (!given) await rateLimitStore.close();
    },
  };
}

let service: AuthService | undefined;

/** The process-wide sign-in layer on the configured environment and database. */
export function getAuthService(): AuthService {
  service ??= createAuthService({ env: getEnv(), database: getDatabase(), rateLimitStore: sharedRateLimitStore() });
  return service;
}

// The operator's commands (`npm run user:role`, `npm run user:sign-out`): plain functions on the database, so a
// command needs no running sign-in layer.

/** Sets one account's role by email; answers how many accounts changed (0: no such account). */
export async function setUserRole(database: DatabaseHandle, email: string, role: string): Promise<number> {
  if (!isRole(role)) throw new Error(`角色必須是 user、editor 或 admin，收到「${role}」`);
  const result = await database.db
    .updateTable("user")
    .set({ role })
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Ends every session of one account, found by email (ASVS 7.4.5, `npm run user:sign-out -- <email>`). Sessions
 * live only in the database and every request looks its session up there, so each device is signed out at its
 * next request. Answers how many sessions ended, or null when no account has that email.
 */
export async function endSessionsOf(database: DatabaseHandle, email: string): Promise<number | null> {
  const user = await database.db.selectFrom("user").select("id").where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
  if (!user) return null;
  const result = await database.db.deleteFrom("session").where("userId", "=", user.id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Ends every session of every account, guests included (`npm run user:sign-out -- --all`); answers how many. */
export async function endAllSessions(database: DatabaseHandle): Promise<number> {
  const result = await database.db.deleteFrom("session").executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Whether a session still exists and has not expired: what a token naming its session (the site's storage JWT,
 * an app's grant) is checked against at every use, so it is refused as soon as its session ends.
 */
export async function sessionIsActive(database: DatabaseHandle, sessionId: string): Promise<boolean> {
  const row = await database.db.selectFrom("session").select("expiresAt").where("id", "=", sessionId).executeTakeFirst();
  return Boolean(row && new Date(row.expiresAt).getTime() > Date.now());
}
