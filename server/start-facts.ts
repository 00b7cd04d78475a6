import fs from "node:fs";
import path from "node:path";
import { isIP } from "node:net";
import type { ServerEnv } from "~/config/env.server";

/**
 * What this start runs with (one log line at start, and the `site_info` gauge on METRICS_PORT): facts an operator
 * checks after a deployment, never a secret. The build's version is the git commit the build was made from
 * (scripts/build-version.mjs writes it beside the build: it describes the code, not a deployment).
 */
export interface StartFacts {
  version: string;
  node: string;
  database: "sqlite" | "postgresql";
  redis: boolean;
  waysIn: string[];
  /** The registered apps' client ids (the log line only; the gauge counts them). */
  apps: string[];
  botCheck: string;
}

/** The commit the build was made from, or "unknown" (a build outside a git checkout, or development). */
export function buildVersion(buildDir: string): string {
  try {
    const { commit } = JSON.parse(fs.readFileSync(path.join(buildDir, "version.json"), "utf8")) as { commit?: unknown };
    return typeof commit === "string" && commit ? commit : "unknown";
  } catch {
    return "unknown";
  }
}

export function startFacts(env: ServerEnv, providers: readonly string[], version: string): StartFacts {
  const passkeys = !isIP(new URL(env.SITE_URL).hostname.replace(/^\[|\]$/g, ""));
  return {
    version,
    node: process.version,
    database: env.DATABASE_URL ? "postgresql" : "sqlite",
    redis: Boolean(env.REDIS_URL),
    waysIn: ["password", "email-link", "guest", ...(passkeys ? ["passkey"] : []), ...(env.SMS_PROVIDER ? ["phone"] : []), ...providers],
    apps: env.oidcClients.map((client) => client.client_id),
    botCheck: env.BOT_CHECK,
  };
}

/** The start line's sentence, in the operators' language; the same facts go in the line's fields. */
export function startSentence(facts: StartFacts): string {
  return (
    `啟動設定：版本 ${facts.version}，Node ${facts.node}，資料庫 ${facts.database}，Redis ${facts.redis ? "有" : "無"}，` +
    `登入方式 ${facts.waysIn.join("、")}，已登記的應用程式 ${facts.apps.length ? facts.apps.join("、") : "無"}，機器人檢查 ${facts.botCheck}`
  );
}
