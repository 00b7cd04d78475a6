import type { ServerEnv } from "~/config/env.server";
import { isCommonPassword } from "./common-passwords.server";

/**
 * Context words (ASVS 6.2.11): a password built on the product's name, the site's name, where it is for, or the
 * user's own email or name is among the first an attacker tries (taskhero123, taiwan2024). The documented list
 * is in docs/security.md; the words below and the user's own are compared letter by letter, ignoring case,
 * spaces and symbols.
 */
const fixedWords = ["taskhero", "任務小勇士", "小勇士", "taiwan", "台灣", "臺灣", "formosa"];

/** Host name labels that say nothing about this site. */
const genericLabels = new Set(["www", "app", "com", "net", "org", "tw", "edu", "gov", "idv", "example", "localhost", "invalid", "test"]);

/** Lower case, width-folded, letters and digits only: "Task-Hero" and "ｔａｓｋ ｈｅｒｏ" are both "taskhero". */
export const comparable = (text: string) => text.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** The site's own words: its product name, its host names' telling labels and the fixed list above. */
export function siteContextWords(env: Pick<ServerEnv, "PRODUCT_NAME" | "SITE_URL" | "APP_URL">): string[] {
  const labels = [env.SITE_URL, env.APP_URL].flatMap((url) => (url ? new URL(url).hostname.split(".") : []));
  return [...fixedWords, env.PRODUCT_NAME, ...labels.filter((label) => !genericLabels.has(label) && !/^\d+$/.test(label))];
}

/** The user's own words: the email's local part (whole and in its pieces) and the display name. */
export function userContextWords(user: { email?: string | null; name?: string | null }): string[] {
  const local = (user.email ?? "").split("@")[0] ?? "";
  return [local, ...local.split(/[._+-]/), user.name ?? ""];
}

/**
 * True when the password leans on a context word: it holds one, and what is left once every such word is taken
 * out has fewer than four letters or is itself a common password.
 */
export function leansOnContextWords(password: string, words: readonly string[]): boolean {
  const candidates = [...new Set(words.map(comparable).filter((word) => [...word].length >= 2))].sort((a, b) => b.length - a.length);
  let rest = comparable(password);
  const whole = rest;
  for (const word of candidates) rest = rest.split(word).join("");
  if (rest === whole) return false;
  return (rest.match(/\p{L}/gu)?.length ?? 0) < 4 || isCommonPassword(rest);
}

export const contextPasswordMessage = "密碼不可建立在網站或產品名稱、「台灣」或你的電子郵件、名稱上（例如 taskhero123、taiwan2024），請換一個";
