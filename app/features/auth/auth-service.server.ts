import { getEnv, type ServerEnv } from "~/config/env.server";
import { getDatabase, whenMigrated } from "~/db/db.server";
import type { DatabaseHandle } from "~/db/connection.server";
import { mailboxTransport, smtpTransport, type MailTransport } from "~/features/mail/mail-transport.server";
import { startMailSender, type MailSender } from "~/features/mail/outbox.server";
import { getLogger } from "~/services/logger.server";
import { createAuth, type Auth, type DevIdentityProvider } from "./auth.server";
import { createRateLimitStore, sharedRateLimitStore, type RateLimitStore } from "~/services/rate-limiter.server";
import { passwordPolicyFrom } from "./password-policy.server";
import { enabledSocialProviders, realSocialProviders } from "./social-providers.server";
import type { SocialProvider } from "./auth-types";
import type { PasswordPolicy } from "./password-policy";

/** Everything the sign-in layer runs on, built once per process (or once per test server). */
export interface AuthService {
  env: ServerEnv;
  database: DatabaseHandle;
  auth: Auth;
  mail: MailTransport;
  /** Delivers the mail outbox through `mail`; stopped (and drained) by close(). */
  mailSender: MailSender;
  rateLimitStore: RateLimitStore;
  passwordPolicy: PasswordPolicy;
  /** The development mailbox and identity provider exist only without SMTP / providers on a loopback site. */
  devMailbox: boolean;
  devIdentityProvider: DevIdentityProvider | undefined;
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
    ? { discoveryUrl: `${env.SITE_URL}/dev-oidc/.well-known/openid-configuration`, ...devIdentityClient }
    : undefined;
}

/**
 * What the sign-in screens show (social buttons, password rules), from the configuration alone. Their loaders also
 * run when the build prerenders them, where starting the sign-in layer would open the database, start the mail
 * sender and look up the development identity provider, which is not running then ("Discovery fetch failed").
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
  const mailSender = startMailSender({ db: database.db, dialect: database.dialect, transport: mail, logger: getLogger(), startWhen: whenMigrated(database) });
  return {
    env,
    database,
    auth,
    mail,
    mailSender,
    rateLimitStore,
    passwordPolicy: passwordPolicyFrom(env),
    devMailbox,
    devIdentityProvider,
    close: async () => {
      await mailSender.stop();
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
