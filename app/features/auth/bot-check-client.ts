import type { Challenge } from "altcha-lib";
import { authBasePath, botCheckChallenge } from "./auth-paths";

/**
 * The browser's half of the bot check (bot-check.server.ts): fetch a task, solve it, hand the answer over in the
 * `X-Bot-Check` header (JSON API) or the form's `botCheck` field (its action passes it on). ALTCHA's solver and
 * its SHA-256 (or the configured provider's script) load only here, on the forms that need them, never with the
 * site's shell.
 */
export const botCheckHeader = "x-bot-check";
export const botCheckField = "botCheck";

/** What the challenge endpoint answers: the proof of work to do, or the provider's site key. */
export type BotCheckTask =
  | { kind: "proof-of-work"; challenge: Challenge }
  | { kind: "turnstile"; siteKey: string }
  | { kind: "recaptcha"; siteKey: string }
  | { kind: "off" };

/** The providers' scripts, loaded on demand (the CSP lets scripts the page's own scripts add run: 'strict-dynamic'). */
const providerScripts = {
  turnstile: { src: "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit", global: "turnstile" },
  recaptcha: { src: "https://www.google.com/recaptcha/api.js?render=", global: "grecaptcha" },
} as const;

interface Turnstile {
  render(element: HTMLElement, options: Record<string, unknown>): string;
}
interface Recaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

async function providerScript<T>(kind: keyof typeof providerScripts, siteKey: string): Promise<T> {
  const { src, global } = providerScripts[kind];
  const loaded = (window as unknown as Record<string, T | undefined>)[global];
  if (loaded) return loaded;
  await new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = kind === "recaptcha" ? `${src}${encodeURIComponent(siteKey)}` : src;
    script.async = true;
    script.onload = resolve;
    script.onerror = reject;
    document.head.append(script);
  });
  return (window as unknown as Record<string, T>)[global]!;
}

/** A provider's token: Turnstile's widget (in `container`, where it may ask for a click) or reCAPTCHA v3's. */
async function providerToken(task: Extract<BotCheckTask, { siteKey: string }>, container?: HTMLElement | null): Promise<string> {
  if (task.kind === "recaptcha") {
    const recaptcha = await providerScript<Recaptcha>("recaptcha", task.siteKey);
    await new Promise<void>((resolve) => recaptcha.ready(resolve));
    return recaptcha.execute(task.siteKey, { action: "submit" });
  }
  const turnstile = await providerScript<Turnstile>("turnstile", task.siteKey);
  return new Promise((resolve, reject) => {
    const place = container ?? document.body.appendChild(document.createElement("div"));
    // A new round (the form was sent) replaces the spent widget.
    place.replaceChildren();
    turnstile.render(place, {
      sitekey: task.siteKey,
      language: "zh-tw",
      callback: resolve,
      "error-callback": reject,
    });
  });
}

/** The solver: ALTCHA's search with SHA-256 in plain JavaScript (bot-check-derive-key.ts), one chunk loaded on demand. */
const loadSolver = () => Promise.all([import("altcha-lib"), import("./bot-check-derive-key")]);
let solverLoading: ReturnType<typeof loadSolver> | null = null;

/** Starts loading the solver (once a page): a form calls it as it shows, so the solver is there when its task comes. */
export function prefetchBotCheckSolver() {
  solverLoading ??= loadSolver();
  // A failed load (a dropped connection) is tried again by the next call.
  solverLoading.catch(() => (solverLoading = null));
  return solverLoading;
}

/** A task from the challenge endpoint. */
async function fetchTask(origin: string): Promise<BotCheckTask> {
  const response = await fetch(`${origin}${authBasePath}${botCheckChallenge}`, { credentials: "omit", cache: "no-store" });
  if (!response.ok) throw new Error(`bot check challenge: ${response.status}`);
  return (await response.json()) as BotCheckTask;
}

/**
 * A check solved for one request: base64 of `{ challenge, solution }`, or a provider's token; "" when there is
 * nothing to solve. `container` is where Turnstile's widget shows, if it must. The task and the solver load side by
 * side, so the search starts as soon as the task is in.
 */
export async function solveBotCheck(origin = "", container?: HTMLElement | null): Promise<string> {
  const solver = prefetchBotCheckSolver();
  const task = await fetchTask(origin);
  if (task.kind === "off") return "";
  if (task.kind !== "proof-of-work") return providerToken(task, container);
  const [{ solveChallenge }, { deriveKey }] = await solver;
  const solution = await solveChallenge({ challenge: task.challenge, deriveKey });
  return solution ? btoa(JSON.stringify({ challenge: task.challenge, solution })) : "";
}

/** The header of a JSON API call to a row that asks for the check. */
export async function botCheckHeaders(origin = ""): Promise<Record<string, string>> {
  const answer = await solveBotCheck(origin);
  return answer ? { [botCheckHeader]: answer } : {};
}
