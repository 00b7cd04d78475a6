import { sql } from "kysely";
import type { AuthService } from "./auth-service.server";
import { configuredSocialProviders } from "./social-providers.server";
import { socialButtonLabels } from "./social-buttons";

export interface SelfTestReport {
  providers: string[];
  authApi: boolean;
  database: { ok: boolean; dialect: string };
  mail: { ok: boolean; kind: "smtp" | "mailbox" };
  rateLimitStore: "redis" | "memory";
}

/** For /firebase-test: which providers are on and whether each part answers. No secrets, no addresses. */
export async function runSelfTest(service: AuthService): Promise<SelfTestReport> {
  const authApi = await service.auth
    .handler(new Request(`${service.env.SITE_URL}/api/auth/ok`))
    .then((response) => response.ok, () => false);
  const database = await sql`select 1`.execute(service.database.db).then(() => true, () => false);
  return {
    providers: ["電子郵件與密碼", "訪客", ...configuredSocialProviders(service).map((provider) => socialButtonLabels[provider])],
    authApi,
    database: { ok: database, dialect: service.database.dialect === "postgres" ? "PostgreSQL" : "SQLite" },
    mail: { ok: await service.mail.check(), kind: service.mail.kind },
    rateLimitStore: service.env.REDIS_URL ? "redis" : "memory",
  };
}
