import { sql } from "kysely";
import { type AuthService, authBasePath, authPaths } from "~/features/auth/index.server";
import { socialButtonLabels } from "~/features/auth";
import { isLoopbackOrigin } from "~/config/origin";

export interface SelfTestReport {
  providers: string[];
  authApi: boolean;
  /** The parts below only on a loopback site: a public one tells nobody its database, mail or limiter. */
  database?: { ok: boolean; dialect: string };
  mail?: { ok: boolean; kind: "smtp" | "mailbox" };
  rateLimitStore?: "redis" | "memory";
}

/** How long one answer of the self-test is shown to everyone: the page is public, the SMTP probe is not free. */
export const SELF_TEST_CACHE_MS = 60_000;

interface CachedReport {
  report: Promise<SelfTestReport>;
  /** Infinity while the check runs, so concurrent loads share it. */
  expiresAt: number;
}

const cache = new WeakMap<AuthService, CachedReport>();

/**
 * For /firebase-test: which providers are on and whether each part answers. No secrets, no addresses; on a public
 * (non-loopback) site only the providers and the sign-in API, never the database's kind, SMTP's reachability or
 * where the limiter keeps its counts (an attacker's map).
 * Anyone may load the page, so one check runs at a time and its answer is reused for SELF_TEST_CACHE_MS.
 */
export function runSelfTest(service: AuthService, now: () => number = Date.now): Promise<SelfTestReport> {
  const cached = cache.get(service);
  if (cached && now() < cached.expiresAt) return cached.report;
  const entry: CachedReport = { report: checkServices(service), expiresAt: Number.POSITIVE_INFINITY };
  cache.set(service, entry);
  entry.report.then(
    () => {
      entry.expiresAt = now() + SELF_TEST_CACHE_MS;
    },
    () => {
      if (cache.get(service) === entry) cache.delete(service);
    },
  );
  return entry.report;
}

async function checkServices(service: AuthService): Promise<SelfTestReport> {
  const authApi = await service.auth
    .handler(new Request(`${service.env.SITE_URL}${authBasePath}${authPaths.ok}`))
    .then((response) => response.ok, () => false);
  const providers = ["電子郵件與密碼", "訪客", ...service.socialProviders.map((provider) => socialButtonLabels[provider])];
  if (!isLoopbackOrigin(service.env.SITE_URL)) return { providers, authApi };
  const database = await sql`select 1`.execute(service.database.db).then(() => true, () => false);
  return {
    providers,
    authApi,
    database: { ok: database, dialect: service.database.dialect === "postgres" ? "PostgreSQL" : "SQLite" },
    mail: { ok: await service.mail.check(), kind: service.mail.kind },
    rateLimitStore: service.env.REDIS_URL ? "redis" : "memory",
  };
}
