import type { Challenge } from "altcha-lib";
import { authBasePath, botCheckChallenge } from "./auth-paths";

/**
 * The browser's half of the bot check (bot-check.server.ts): fetch a task, solve it, hand the answer over in the
 * `X-Bot-Check` header (JSON API) or the form's `botCheck` field (its action passes it on). ALTCHA's solver and
 * SHA-256 by Web Crypto load only here, on the forms that need them, never with the site's shell.
 */
export const botCheckHeader = "x-bot-check";
export const botCheckField = "botCheck";

/** What the challenge endpoint answers: the proof of work to do, or the provider's site key. */
export type BotCheckTask =
  | { kind: "proof-of-work"; challenge: Challenge }
  | { kind: "turnstile"; siteKey: string }
  | { kind: "recaptcha"; siteKey: string }
  | { kind: "off" };

/** A solved check for one request: base64 of `{ challenge, solution }`, or "" when there is nothing this page can solve. */
export async function solveBotCheck(origin = ""): Promise<string> {
  const response = await fetch(`${origin}${authBasePath}${botCheckChallenge}`, { credentials: "omit", cache: "no-store" });
  const task = (await response.json()) as BotCheckTask;
  if (task.kind !== "proof-of-work") return "";
  const [{ solveChallenge }, { deriveKey }] = await Promise.all([import("altcha-lib"), import("altcha-lib/algorithms/web/sha")]);
  const solution = await solveChallenge({ challenge: task.challenge, deriveKey });
  return solution ? btoa(JSON.stringify({ challenge: task.challenge, solution })) : "";
}

/** The header of a JSON API call to a row that asks for the check. */
export async function botCheckHeaders(origin = ""): Promise<Record<string, string>> {
  const answer = await solveBotCheck(origin);
  return answer ? { [botCheckHeader]: answer } : {};
}
