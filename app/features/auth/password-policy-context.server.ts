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

/** Digits and symbols that stand for letters ("leet"): t4skh3r0 is taskhero. */
const leet: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", $: "s", "!": "i", "|": "l" };
const unLeet = (text: string) => [...text.normalize("NFKC").toLowerCase()].map((character) => leet[character] ?? character).join("");

/**
 * A word and its reorderings: every rotation of a Latin word of six letters or more, so the two halves of a
 * compound name swapped (herotask for taskhero) are still the word.
 */
function withRotations(word: string): string[] {
  if (!/^[a-z]{6,}$/.test(word)) return [word];
  return [...word].map((_, index) => word.slice(index) + word.slice(0, index));
}

/** What is left of `password` once every candidate word is taken out, or null when none was in it. */
function restWithout(password: string, candidates: readonly string[]): string | null {
  let rest = password;
  for (const word of candidates) rest = rest.split(word).join("");
  return rest === password ? null : rest;
}

/**
 * True when the password leans on a context word: it holds one (as typed, or read through leet), and what is left
 * once every such word is taken out has fewer than four letters or is itself a common password.
 */
export function leansOnContextWords(password: string, words: readonly string[]): boolean {
  const base = words.map(comparable).filter((word) => [...word].length >= 2);
  const candidates = [...new Set(base.flatMap(withRotations))].sort((a, b) => b.length - a.length);
  return [comparable(password), comparable(unLeet(password))].some((readAs) => {
    const rest = restWithout(readAs, candidates);
    return rest !== null && ((rest.match(/\p{L}/gu)?.length ?? 0) < 4 || isCommonPassword(rest));
  });
}

export const contextPasswordMessage = "密碼不可建立在網站或產品名稱、「台灣」或你的電子郵件、名稱上（例如 taskhero123、taiwan2024），請換一個";
