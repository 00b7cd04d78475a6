import { ConfigError, parseEnv } from "./env.server";

/**
 * The build's check of its environment (react-router.config.ts). The prerendered pages are rendered with the
 * build's own variables, read as the server reads them (OIDC_CLIENTS, SITE_URL, APP_URL…): a bad value stops the
 * build with this message, naming the variable, before any page is rendered (each page would otherwise fail as an
 * opaque "Prerender… 500"). Null when the environment is fine.
 */
export function buildConfigurationError(source: Record<string, string | undefined>): string | null {
  try {
    parseEnv(source);
    return null;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return `建置停止：建置時會讀取與伺服器相同的環境變數，以產生預先轉譯的頁面。\n${error.message}`;
  }
}
