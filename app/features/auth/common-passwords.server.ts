import { dictionary } from "@zxcvbn-ts/language-common";
// Bundled as text by Vite (and read the same way by Vitest), so the server build needs no data files at run time.
import taiwanList from "./data/taiwan-common-passwords.txt?raw";

/**
 * Passwords refused as too common (ASVS 6.2.4): zxcvbn-ts's list of about 49,000 leaked passwords, which holds
 * most Taiwan favourites (1qaz2wsx, aa123456), plus our own short list of Taiwanese ones it lacks. Server-only:
 * the list never reaches the browser.
 */
const commonPasswords = new Set(
  [...dictionary["passwords-common"], ...taiwanList.split("\n").filter((line) => line && !line.startsWith("#"))].map((entry) =>
    entry.trim().normalize("NFC").toLowerCase(),
  ),
);

export function isCommonPassword(password: string): boolean {
  return commonPasswords.has(password.normalize("NFC").toLowerCase());
}

export const commonPasswordCount = commonPasswords.size;

