import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChallenge, solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import { noScriptBotCheck } from "~/features/auth/bot-check.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { solvedBotCheck, startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";

// The bot check before every row that asks for it (bot-check.server.ts): no answer, a solved challenge, the same
// answer again, a form sent without JavaScript, and the Turnstile and reCAPTCHA verify endpoints (a local fake).

const secret = "bot-check-secret-for-tests-0123456789abcdef";
const password = "kite-river-7";
const newEmail = () => `bot-${randomUUID().slice(0, 8)}@example.tw`;
const newNumber = () => `09${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;

/** The answer a browser sends: the challenge the server handed out (never cached), solved, as base64 JSON. */
async function solved(client: AuthTestClient): Promise<string> {
  return solvedBotCheck(async (path) => {
    const answer = await fetch(`${client.baseURL}/api/auth${path}`, { headers: { "x-forwarded-for": client.ip } });
    expect(answer.headers.get("cache-control")).toBe("no-store");
    return answer;
  });
}
const answering = (answer: string) => ({ "x-bot-check": answer });

/** Each protected endpoint and a body it accepts; `prepare` readies the client (the guest upgrade needs a guest). */
const protectedEndpoints: { path: string; body: (baseURL: string) => Record<string, unknown>; prepare?: (client: AuthTestClient) => Promise<void> }[] = [
  { path: "/sign-up/email", body: () => ({ email: newEmail(), password, name: "小華" }) },
  { path: "/sign-in/anonymous", body: () => ({}) },
  {
    path: "/guest/upgrade",
    body: () => ({ email: newEmail(), password, name: "小華" }),
    prepare: async (client) => void expect((await client.post("/sign-in/anonymous", {}, answering(await solved(client)))).status).toBe(200),
  },
  { path: "/request-password-reset", body: (baseURL) => ({ email: newEmail(), redirectTo: `${baseURL}/reset-password` }) },
  { path: "/email-link/request", body: () => ({ email: newEmail() }) },
  { path: "/phone-number/send-otp", body: () => ({ phoneNumber: newNumber() }) },
  { path: "/send-verification-email", body: () => ({ email: newEmail() }) },
];

describeEachDatabase("the bot check (proof of work)", (database) => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer(database(), { BOT_CHECK: "proof-of-work", BOT_CHECK_SECRET: secret, BOT_CHECK_WORK: "2000", RATE_LIMIT_NO_SCRIPT_PER_IP: "2/3600" });
  });
  afterAll(async () => {
    await server.close();
  });

  for (const endpoint of protectedEndpoints) {
    describe(endpoint.path, () => {
      it("refuses a request without an answer, with a stable code and a Chinese message", async () => {
        const client = server.client();
        await endpoint.prepare?.(client);
        const answer = await client.post(endpoint.path, endpoint.body(server.baseURL));
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ code: "auth/missing-bot-check", message: "請等「確認你不是機器人」完成後再送出" });
      });

      it("takes a solved challenge once; the same answer again is refused", async () => {
        const client = server.client();
        await endpoint.prepare?.(client);
        const answer = await solved(client);
        const first = await client.post(endpoint.path, endpoint.body(server.baseURL), answering(answer));
        expect(first.status, JSON.stringify(first.body)).toBe(200);
        const other = server.client();
        await endpoint.prepare?.(other);
        const replay = await other.post(endpoint.path, endpoint.body(server.baseURL), answering(answer));
        expect(replay.status).toBe(400);
        expect(replay.body).toMatchObject({ code: "auth/captcha-check-failed" });
      });

      it("takes a form sent without JavaScript under RATE_LIMIT_NO_SCRIPT_PER_IP, then answers 429 with Retry-After", async () => {
        // One address, a new browser each time (a guest cannot become a guest again).
        const ip = server.client().ip;
        const browser = async (at: string | undefined = ip) => {
          const client = server.client(at ? { ip: at } : {});
          await endpoint.prepare?.(client);
          return client;
        };
        const send = async (answer: string, at?: string) => (await browser(at)).post(endpoint.path, endpoint.body(server.baseURL), answering(answer));
        for (let sent = 0; sent < 2; sent += 1) {
          const answer = await send(noScriptBotCheck());
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        }
        const over = await send(noScriptBotCheck());
        expect(over.status).toBe(429);
        expect(over.body).toMatchObject({ code: "auth/no-script-limit" });
        expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
        // A solved challenge from the same address still goes through; another address has its own count.
        const client = await browser();
        expect((await client.post(endpoint.path, endpoint.body(server.baseURL), answering(await solved(client)))).status).toBe(200);
        expect((await send(noScriptBotCheck(), server.client().ip)).status).toBe(200);
      });
    });
  }

  it("asks nothing of the site's own call: an operator's resend of a verification mail has no visitor", async () => {
    await expect(server.service.auth.api.sendVerificationEmail({ body: { email: newEmail() } })).resolves.toMatchObject({ status: true });
  });

  it("refuses a wrong solution, a changed challenge, an expired one and one signed with another key", async () => {
    const client = server.client();
    const body = () => ({ email: newEmail(), password, name: "小華" });
    const decoded = JSON.parse(Buffer.from(await solved(client), "base64").toString()) as { challenge: Challenge; solution: { counter: number; derivedKey: string } };
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");
    const wrongCounter = encode({ ...decoded, solution: { ...decoded.solution, counter: decoded.solution.counter + 1 } });
    const easier = encode({ ...decoded, challenge: { ...decoded.challenge, parameters: { ...decoded.challenge.parameters, keyPrefix: "0" } } });
    const expiredChallenge = await createChallenge({ algorithm: "SHA-256", cost: 1, counter: 5, deriveKey, expiresAt: Math.floor(Date.now() / 1000) - 1, hmacSignatureSecret: secret });
    const expired = encode({ challenge: expiredChallenge, solution: await solveChallenge({ challenge: expiredChallenge, deriveKey }) });
    const foreignChallenge = await createChallenge({ algorithm: "SHA-256", cost: 1, counter: 5, deriveKey, expiresAt: Math.floor(Date.now() / 1000) + 60, hmacSignatureSecret: `${secret}-other` });
    const foreign = encode({ challenge: foreignChallenge, solution: await solveChallenge({ challenge: foreignChallenge, deriveKey }) });
    for (const answer of [wrongCounter, easier, expired, foreign, "not base64 json", encode({ challenge: {} }), encode({ challenge: { parameters: "x", signature: "y" }, solution: 1 }), encode({ challenge: { ...decoded.challenge, parameters: { ...decoded.challenge.parameters, nonce: "zz" } }, solution: decoded.solution })]) {
      const refused = await client.post("/sign-up/email", body(), answering(answer));
      expect(refused.status, answer).toBe(400);
      expect(refused.body).toMatchObject({ code: "auth/captcha-check-failed", message: "「確認你不是機器人」沒有通過或已經過期，請重新整理頁面再試一次" });
    }
  });

  it("checks before the per-account limits: an unanswered request spends nobody's quota", async () => {
    const email = newEmail();
    for (let tries = 0; tries < 5; tries += 1) {
      expect((await server.client().post("/request-password-reset", { email, redirectTo: `${server.baseURL}/reset-password` })).status).toBe(400);
    }
    const client = server.client();
    const answer = await client.post("/request-password-reset", { email, redirectTo: `${server.baseURL}/reset-password` }, answering(await solved(client)));
    expect(answer.status).toBe(200);
  });
});

/** A stand-in for Turnstile's and reCAPTCHA's siteverify: `good-token` passes; every form it got is kept. */
async function startVerifyFake(): Promise<{ url: string; forms: URLSearchParams[]; close(): Promise<void> }> {
  const forms: URLSearchParams[] = [];
  const server: Server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => {
      const form = new URLSearchParams(text);
      forms.push(form);
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(form.get("response") === "good-token" && form.get("secret") === "provider-secret" ? { success: true } : { success: false, "error-codes": ["invalid-input-response"] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/siteverify`, forms, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

for (const provider of ["turnstile", "recaptcha"] as const) {
  const prefix = provider === "turnstile" ? "TURNSTILE" : "RECAPTCHA";
  describeEachDatabase(`the bot check (${provider})`, (database) => {
    let server: AuthTestServer;
    let fake: Awaited<ReturnType<typeof startVerifyFake>>;
    beforeAll(async () => {
      fake = await startVerifyFake();
      server = await startAuthServer(database(), { BOT_CHECK: provider, [`${prefix}_SITE_KEY`]: "site-key", [`${prefix}_SECRET_KEY`]: "provider-secret", [`${prefix}_VERIFY_URL`]: fake.url });
    });
    afterAll(async () => {
      await server.close();
      await fake.close();
    });

    it("hands the browser the site key, never the secret", async () => {
      const task = await server.client().get("/bot-check/challenge");
      expect(task.body).toEqual({ kind: provider, siteKey: "site-key" });
    });

    it("asks the verify endpoint with the secret, the token and the address; takes a good token once", async () => {
      const client = server.client();
      const body = () => ({ email: newEmail(), password, name: "小華" });
      expect((await client.post("/sign-up/email", body())).body).toMatchObject({ code: "auth/missing-bot-check" });
      const good = await client.post("/sign-up/email", body(), answering("good-token"));
      expect(good.status, JSON.stringify(good.body)).toBe(200);
      expect(Object.fromEntries(fake.forms.at(-1)!)).toEqual({ secret: "provider-secret", response: "good-token", remoteip: client.ip });
      const again = await server.client().post("/sign-up/email", body(), answering("good-token"));
      expect(again.body).toMatchObject({ code: "auth/captcha-check-failed" });
      const bad = await server.client().post("/sign-up/email", body(), answering("bad-token"));
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: "auth/captcha-check-failed" });
    });

    it("answers 503 when the verify endpoint cannot be reached, never letting the request through", async () => {
      const unreachable = await startAuthServer(database(), { BOT_CHECK: provider, [`${prefix}_SITE_KEY`]: "site-key", [`${prefix}_SECRET_KEY`]: "provider-secret", [`${prefix}_VERIFY_URL`]: "http://127.0.0.1:9/siteverify" });
      try {
        const answer = await unreachable.client().post("/sign-in/anonymous", {}, answering("good-token"));
        expect(answer.status).toBe(503);
        expect(answer.body).toMatchObject({ code: "auth/service-unavailable" });
      } finally {
        await unreachable.close();
      }
    });
  });
}
