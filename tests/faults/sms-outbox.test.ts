import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/connection.server";
import { fakeGateways } from "~tests/helpers/fake-sms-gateways";
import { postJson, startSite } from "./site-process";

/**
 * Text messages through the built site: they share the mail outbox (lease, retries, survival of kill -9) and the
 * development mailbox, and neither a texted code nor an emailed link ever reaches a log line.
 */
const generousLimits = {
  RATE_LIMIT_SMS_PER_IP: "100000/60",
  RATE_LIMIT_AUTH_PER_IP: "100000/60",
  RATE_LIMIT_SIGN_IN_PER_IP: "100000/60",
  RATE_LIMIT_SIGN_UP_PER_IP: "100000/60",
  RATE_LIMIT_MAIL_PER_IP: "100000/60",
  SMS_DAILY_LIMIT: "100000",
};

let numbers = Math.floor(Math.random() * 5e7);
/** A fresh Taiwanese mobile in E.164, different on every call of the run. */
const newNumber = () => `+8869${String(numbers++).padStart(8, "0")}`;
const cookieOf = (response: Response) => response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");

interface MailboxEntry {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

/** The development mailbox's JSON for `to` (a `+886…` number as typed, its `+` unencoded), or all of it. */
async function mailbox(baseURL: string, to?: string): Promise<MailboxEntry[]> {
  const answer = await fetch(`${baseURL}/api/dev/mailbox${to ? `?to=${to}` : ""}`);
  expect(answer.status).toBe(200);
  return (await answer.json()) as MailboxEntry[];
}

/** Waits for the first entry to `to` whose text matches `pattern`. */
async function waitForEntry(baseURL: string, to: string, pattern: RegExp): Promise<MailboxEntry> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const found = (await mailbox(baseURL, to)).find((entry) => pattern.test(entry.text));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing to ${to} matching ${pattern}`);
}

describe("texts and mail in the development mailbox, and never in a log line", () => {
  it("texts a code and mails a link that the mailbox shows side by side, and logs neither", { timeout: 120_000 }, async () => {
    // Every level: whatever any part of the site writes, at any level, is read here.
    const site = await startSite({ ...generousLimits, LOG_LEVEL: "trace" });
    try {
      // Phone sign-up: a code by text, read back through `?to=+886…`.
      const number = newNumber();
      const typed = `0${number.slice(4, 7)}-${number.slice(7, 10)}-${number.slice(10)}`;
      expect((await postJson(site.baseURL, "/api/auth/phone-number/send-otp", { phoneNumber: typed })).status).toBe(200);
      const text = await waitForEntry(site.baseURL, number, /驗證碼是 \d{6}/);
      const code = /(\d{6})/.exec(text.text)?.[1] ?? "";
      const signedUp = await postJson(site.baseURL, "/api/auth/phone-number/verify", { phoneNumber: typed, code, name: "陳媽媽" });
      expect(signedUp.status).toBe(200);

      // An emailed sign-in link, for an account with a password: requested, opened, used.
      const email = `link-${Date.now()}@example.tw`;
      expect((await postJson(site.baseURL, "/api/auth/sign-up/email", { email, password: "kite-river-7", name: "小華" })).status).toBe(200);
      expect((await postJson(site.baseURL, "/api/auth/email-link/request", { email })).status).toBe(200);
      const mail = await waitForEntry(site.baseURL, email, /login\/email-link/);
      const link = mail.links.find((candidate) => candidate.includes("/login/email-link")) ?? "";
      const token = new URL(link).searchParams.get("token") ?? "";
      expect(token.length).toBeGreaterThan(20);
      expect((await fetch(`${site.baseURL}/login/email-link?token=${encodeURIComponent(token)}`)).status).toBe(200);
      const signedIn = await postJson(site.baseURL, "/api/auth/email-link/sign-in", { token });
      expect(signedIn.status).toBe(200);
      expect(cookieOf(signedIn)).toMatch(/session_token=/);

      // One JSON list: the text beside the mail, in the same shape; and one screen showing both.
      const all = await mailbox(site.baseURL);
      const mine = all.filter((entry) => entry.to === number || entry.to === email);
      expect(new Set(mine.map((entry) => entry.to))).toEqual(new Set([number, email]));
      for (const entry of mine) expect(Object.keys(entry).sort()).toEqual(["createdAt", "html", "links", "subject", "text", "to"]);
      const screen = await (await fetch(`${site.baseURL}/dev/mailbox`)).text();
      expect(screen).toContain(number);
      expect(screen).toContain(email);
      expect(screen).toContain(`驗證碼是 ${code}`);

      // Every line the server wrote: not the code, not the link, not its token (the log lines of the requests
      // that carried them are written as their answers go out, so wait a moment).
      await new Promise((resolve) => setTimeout(resolve, 500));
      const output = site.output();
      expect(output).toMatch(/"msg"/);
      expect(output).toContain("sms-code-request");
      // The code as a number of its own (a timestamp may hold the same six digits by chance).
      expect(new RegExp(`(?<!\\d)${code}(?!\\d)`).test(output), "the log holds the texted code").toBe(false);
      for (const secret of [token, encodeURIComponent(token), link]) expect(output.includes(secret), `the log holds ${secret.slice(0, 12)}…`).toBe(false);
    } finally {
      expect((await site.stop()).code).toBe(0);
    }
  });
});

describe("texts queued in the outbox through kill -9", () => {
  // A slow gateway (2 s an answer) lets the texts queue up behind it.
  const gateway = fakeGateways({ delayMs: 2_000 });
  let gatewayUrl = "";
  beforeAll(async () => {
    gatewayUrl = await gateway.start();
  });
  afterAll(async () => {
    await gateway.stop();
  });

  /** The numbers the gateway was asked to text, as E.164 (三竹 takes 09…), once per request. */
  const textedNumbers = () =>
    gateway.received.flatMap((request) => {
      const local = /dstaddr=(\d+)/.exec(request.body)?.[1];
      return local ? [`+886${local.slice(1)}`] : [];
    });

  it("texts every acknowledged code after the restart, at least once, and gives none up", { timeout: 240_000 }, async () => {
    const env = { ...generousLimits, SMS_PROVIDER: "mitake", MITAKE_URL: gatewayUrl, MITAKE_USERNAME: "taskhero", MITAKE_PASSWORD: "s3cret" };
    const site = await startSite(env);
    const acknowledged: string[] = [];
    let killed = false;
    const worker = async () => {
      while (!killed) {
        const number = newNumber();
        try {
          const answer = await postJson(site.baseURL, "/api/auth/phone-number/send-otp", { phoneNumber: number });
          if (answer.status === 200) acknowledged.push(number);
        } catch {
          // The server is gone: what it acknowledged before is what counts.
        }
      }
    };
    const workers = Array.from({ length: 6 }, worker);
    // Killed once a fair number of acknowledged texts wait in the outbox, not yet handed to the gateway.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && (acknowledged.length < 30 || acknowledged.length - gateway.received.length < 15)) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await site.stop("SIGKILL");
    killed = true;
    await Promise.all(workers);
    const waiting = acknowledged.length - gateway.received.length;
    expect(waiting).toBeGreaterThanOrEqual(15);

    const restarted = await startSite(env, { dataDir: site.dataDir });
    const { db } = openDatabase({ dataDir: site.dataDir });
    try {
      // Rows the killed sender had claimed wait out their lease (60 s), then go again.
      const codeRows = () => db.selectFrom("mail_outbox").select(["recipient", "sent_at", "failed_at"]).where("subject", "=", "code").execute();
      const sendBy = Date.now() + 150_000;
      let missing = acknowledged;
      let unmarked = acknowledged;
      while (Date.now() < sendBy && (missing.length || unmarked.length)) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        const texted = new Set(textedNumbers());
        missing = acknowledged.filter((number) => !texted.has(number));
        const sent = new Set((await codeRows()).filter((row) => row.sent_at).map((row) => row.recipient));
        unmarked = acknowledged.filter((number) => !sent.has(number));
      }
      expect(missing).toEqual([]);
      expect(unmarked).toEqual([]);
      expect((await codeRows()).filter((row) => row.failed_at)).toEqual([]);
      // At least once: a text goes twice only if the kill came between the gateway's answer and its mark, so at
      // most one batch (20) of them.
      const counts = new Map<string, number>();
      for (const number of textedNumbers()) counts.set(number, (counts.get(number) ?? 0) + 1);
      expect([...counts.values()].filter((count) => count > 1).length).toBeLessThanOrEqual(20);
    } finally {
      await db.destroy();
      expect((await restarted.stop()).code).toBe(0);
      fs.rmSync(site.dataDir, { recursive: true, force: true });
    }
  });
});
