import { createHash, createHmac, randomBytes, randomInt } from "node:crypto";
import { APIError, createAuthEndpoint, createAuthMiddleware } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";
import { createChallenge, verifySolution, type Challenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import type { ServerEnv } from "~/config/env.server";
import { clientIpHeader } from "~/services/client-ip.server";
import { fixedWindowLimiter, type RateLimitStore } from "~/services/rate-limiter.server";
import { getLogger } from "~/services/logger.server";
import { authPaths, endpointsWhere } from "./auth-endpoints";
import { botCheckHeader, type BotCheckTask } from "./bot-check-client";

/**
 * The bot check (the original's `recaptchaConfig`) before every row of the endpoint table that asks for it (a
 * sign-up, a guest, a texted code, an emailed link, a reset mail): ALTCHA's proof-of-work by default (self-hosted,
 * no third party, no cookie), Cloudflare Turnstile or Google reCAPTCHA when BOT_CHECK names one. A solution works
 * once and a challenge lives ten minutes. A sign-in form sent without JavaScript has no solution: its action says
 * so with this process's own pass, and such requests are held to RATE_LIMIT_NO_SCRIPT_PER_IP instead.
 */

/** How long a challenge may be solved and used. */
const CHALLENGE_SECONDS = 600;

/**
 * What a form's action sends when the form came without a solution (JavaScript off). Made afresh by each process
 * and never sent to a browser, so only an in-process call (auth-http.server.ts) can present it.
 */
const noScriptPass = randomBytes(32).toString("base64url");
export const noScriptBotCheck = () => noScriptPass;

/** The key that signs challenges: BOT_CHECK_SECRET, else one derived from the sign-in layer's secret. */
export const botCheckSecret = (env: ServerEnv, authSecret: string) => env.BOT_CHECK_SECRET ?? createHmac("sha256", authSecret).update("bot-check").digest("base64url");

const refused = (code: "BOT_CHECK_MISSING" | "BOT_CHECK_FAILED") =>
  new APIError("BAD_REQUEST", { code, message: code === "BOT_CHECK_MISSING" ? "A bot check is required" : "The bot check failed" });

/** A new proof-of-work challenge: SHA-256 from a random counter below BOT_CHECK_WORK, signed, ten minutes. */
async function proofOfWork(env: ServerEnv, secret: string): Promise<Challenge> {
  return createChallenge({
    algorithm: "SHA-256",
    cost: 1,
    counter: randomInt(1, env.BOT_CHECK_WORK + 1),
    deriveKey,
    expiresAt: Math.floor(Date.now() / 1000) + CHALLENGE_SECONDS,
    hmacSignatureSecret: secret,
  });
}

/** The browser's answer: base64 of `{ challenge, solution }` as ALTCHA's solver returns it; null when unreadable. */
function readSolution(value: string): { challenge: Challenge; solution: Solution } | null {
  try {
    const parsed = JSON.parse(Buffer.from(value, "base64").toString("utf8")) as { challenge?: Challenge; solution?: Solution };
    if (!parsed?.challenge?.parameters || typeof parsed.challenge.signature !== "string" || !parsed.solution) return null;
    return { challenge: parsed.challenge, solution: parsed.solution };
  } catch {
    return null;
  }
}

/** Asks Turnstile's or reCAPTCHA's verify endpoint (the same form and answer); a failure to reach it is ours (503). */
async function providerVerifies(url: string, secret: string, token: string, ip: string | null): Promise<boolean> {
  const form = new URLSearchParams({ secret, response: token });
  if (ip) form.set("remoteip", ip);
  try {
    const response = await fetch(url, { method: "POST", body: form, signal: AbortSignal.timeout(5_000) });
    const answer = (await response.json()) as { success?: unknown; score?: unknown };
    // reCAPTCHA v3 also scores the visit (1 human … 0 bot): below one half counts as a bot.
    return answer.success === true && (typeof answer.score !== "number" || answer.score >= 0.5);
  } catch (error) {
    getLogger().error({ err: error, url }, "bot check provider unreachable");
    throw new APIError("SERVICE_UNAVAILABLE", { code: "BOT_CHECK_UNAVAILABLE", message: "The bot check is unavailable" });
  }
}

export function botCheck(env: ServerEnv, store: RateLimitStore, secret: string): BetterAuthPlugin {
  const used = (key: string, seconds: number) => fixedWindowLimiter(store, { max: 1, windowSeconds: Math.max(1, seconds) }, "bot-check-used:").hit(key);
  const noScript = fixedWindowLimiter(store, env.RATE_LIMIT_NO_SCRIPT_PER_IP, "no-script:");

  /** Whether `value` is a valid, unused answer of the configured check (and marks it used). */
  async function passes(value: string, ip: string | null): Promise<boolean> {
    if (env.BOT_CHECK === "proof-of-work") {
      const answer = readSolution(value);
      if (!answer) return false;
      // A shape the library cannot read is a wrong answer, not our failure.
      const result = await verifySolution({ ...answer, deriveKey, hmacSignatureSecret: secret }).catch(() => null);
      if (!result?.verified) return false;
      const left = (answer.challenge.parameters.expiresAt ?? 0) - Date.now() / 1000;
      return (await used(answer.challenge.signature!, left)).allowed;
    }
    const [url, key] = env.BOT_CHECK === "turnstile" ? [env.TURNSTILE_VERIFY_URL, env.TURNSTILE_SECRET_KEY] : [env.RECAPTCHA_VERIFY_URL, env.RECAPTCHA_SECRET_KEY];
    if (!(await providerVerifies(url!, key!, value, ip))) return false;
    // The providers spend a token themselves; a second use is refused here too, whatever they say.
    return (await used(createHash("sha256").update(value).digest("base64url"), CHALLENGE_SECONDS)).allowed;
  }

  return {
    id: "bot-check",
    endpoints: {
      botCheckChallenge: createAuthEndpoint(authPaths.botCheckChallenge, { method: "GET" }, async (ctx) => {
        ctx.setHeader("Cache-Control", "no-store");
        const task: BotCheckTask =
          env.BOT_CHECK === "proof-of-work"
            ? { kind: "proof-of-work", challenge: await proofOfWork(env, secret) }
            : env.BOT_CHECK === "turnstile"
              ? { kind: "turnstile", siteKey: env.TURNSTILE_SITE_KEY! }
              : env.BOT_CHECK === "recaptcha"
                ? { kind: "recaptcha", siteKey: env.RECAPTCHA_SITE_KEY! }
                : { kind: "off" };
        return ctx.json(task);
      }),
    },
    hooks: {
      before: [
        {
          matcher: endpointsWhere((row) => row.botCheck),
          handler: createAuthMiddleware(async (ctx) => {
            if (env.BOT_CHECK === "off") return;
            // The site's own call without a request (an operator's resend of a verification mail) is no visitor.
            if (!ctx.request && !ctx.headers) return;
            const value = ctx.headers?.get(botCheckHeader) ?? "";
            const ip = ctx.headers?.get(clientIpHeader) ?? null;
            if (value === noScriptPass) {
              const decision = await noScript.hit(ip ?? "unknown");
              if (decision.allowed) return;
              const wait = String(decision.retryAfterSeconds);
              throw new APIError("TOO_MANY_REQUESTS", { code: "NO_SCRIPT_LIMIT", message: "Too many forms without a bot check" }, { "Retry-After": wait, "X-Retry-After": wait });
            }
            if (!value) throw refused("BOT_CHECK_MISSING");
            if (!(await passes(value, ip))) throw refused("BOT_CHECK_FAILED");
          }),
        },
      ],
    },
  };
}
