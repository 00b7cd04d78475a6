import type { SessionUser } from "./auth-client";

/** The display name, else the part of the email before `@`, else 使用者 (PRODUCT §4). */
export function displayNameOf(user: Pick<SessionUser, "displayName" | "email">): string {
  return user.displayName?.trim() || user.email?.split("@")[0]?.trim() || "使用者";
}

/** The longest display name, in characters, wherever one is set (sign-up, guest upgrade, profile update). */
export const DISPLAY_NAME_MAX_LENGTH = 100;

/**
 * Characters a reader cannot see but that change what they see: C0/C1 controls, bidi overrides and isolates
 * (U+202E turns "gpj.exe" around), zero-width spaces and marks, line separators. The zero-width joiner stays:
 * emoji sequences need it.
 */
const hiddenCharacters = /[\p{Cc}\u00AD\u061C\u180E\u200B\u200C\u200E\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]/u;

/** A link: a scheme, `www.`, or a host name with a top-level domain a phishing link would use (also full-width). */
const linkLike =
  /(?:[a-z][a-z0-9+.-]*:\/\/|www\.|[\p{L}\p{N}-]+\.(?:com|net|org|tw|io|co|cc|me|info|biz|xyz|app|link|site|online|top|shop|ly|gl|example)(?![\p{L}\p{N}]))/iu;

/**
 * Full stops of other scripts that a reader (and some browsers' link detection) takes for a dot: the ideographic
 * 。 (U+3002), its half-width ｡ (U+FF61), the full-width ． (U+FF0E), the small ﹒ (U+FE52), the one-dot leader ․
 * (U+2024). `evil。example` is a link to the eye; the name's own text is kept as typed.
 */
const dotLookAlikes = /[\u3002\uFF61\uFF0E\uFE52\u2024]/gu;
const asLinkReader = (text: string) => text.normalize("NFKC").replace(dotLookAlikes, ".");

export type DisplayNameProblem = "too-long" | "hidden-characters" | "link";

/**
 * What is wrong with a display name, or null (PRODUCT §4): a name is shown to others and quoted by the site, so
 * it holds no hidden characters and no link — a name like 「帳號已停用，請至 https://evil.example 重新啟用」
 * would otherwise speak with the site's voice. An empty name is no problem here: the site then shows the email's
 * name part (`displayNameOf`); only our own screens ask for one (their form schemas).
 */
export function displayNameProblem(name: string): DisplayNameProblem | null {
  const trimmed = name.trim();
  if ([...trimmed].length > DISPLAY_NAME_MAX_LENGTH) return "too-long";
  if (hiddenCharacters.test(trimmed)) return "hidden-characters";
  if (linkLike.test(asLinkReader(trimmed))) return "link";
  return null;
}

export const displayNameMessages: Record<DisplayNameProblem, string> = {
  "too-long": `顯示名稱不可超過 ${DISPLAY_NAME_MAX_LENGTH} 個字元`,
  "hidden-characters": "顯示名稱不可包含看不見的控制字元",
  link: "顯示名稱不可包含網址",
};

/** A name from elsewhere (a sign-in provider) made fit to show: hidden characters and links removed, then capped. */
export function cleanDisplayName(name: string): string {
  const visible = [...name.normalize("NFC")].filter((character) => !hiddenCharacters.test(character)).join("").trim();
  const clean = linkLike.test(asLinkReader(visible)) ? "" : visible;
  return [...clean].slice(0, DISPLAY_NAME_MAX_LENGTH).join("");
}
