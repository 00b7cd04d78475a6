import type { Kysely } from "kysely";
import type { ServerEnv } from "~/config/env.server";
import type { Database } from "~/db/schema";
import { smsMailboxTransport } from "./mail-transport.server";
import type { SmsTransport } from "./outbox.server";

/**
 * The SMS gateways Taiwanese companies use, chosen by SMS_PROVIDER (docs/auth.md): 三竹 Mitake, Every8d and Twilio
 * Verify; the development mailbox by default on a loopback site. A gateway's refusal throws: the outbox keeps the
 * text, retries it with back-off and logs the refusal for the operator (never the text, which may hold a code).
 */
type Fetch = typeof fetch;

/** A refusal no retry can fix (a gateway that cannot send this kind of text): the outbox gives the row up at once. */
export class PermanentSmsError extends Error {
  readonly permanent = true;
}

/** Taiwanese gateways take a Taiwanese mobile as 09…; another country's number keeps its international form. */
const localNumber = (e164: string) => (e164.startsWith("+886") ? `0${e164.slice(4)}` : e164.slice(1));

/** 三竹 Mitake: `SmSendPost.asp?encoding=UTF8`, credentials in the query, an INI body; the reply is INI too. */
export function mitakeGateway(settings: { url: string; username: string; password: string }, fetcher: Fetch = fetch): SmsTransport {
  return {
    kind: "mitake",
    async send({ to, text }) {
      const query = new URLSearchParams({ username: settings.username, password: settings.password, encoding: "UTF8" });
      const body = `[0]\r\ndstaddr=${localNumber(to)}\r\nsmbody=${text.replace(/\r?\n/g, "\u0006")}\r\n`;
      const response = await fetcher(`${settings.url}/api/mtk/SmSendPost.asp?${query}`, {
        method: "POST",
        headers: { "content-type": "text/plain; charset=utf-8" },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      const reply = await response.text();
      const status = /^statuscode=(\S+)/m.exec(reply)?.[1];
      // 0 booked, 1 and 2 handed to the carrier, 4 delivered; anything else (e, k, *, …) is a refusal.
      if (!response.ok || !status || !["0", "1", "2", "4"].includes(status)) {
        throw new Error(`Mitake refused the text: HTTP ${response.status}, statuscode ${status ?? "missing"}`);
      }
    },
  };
}

/** Every8d: `API21/HTTP/sendSMS.ashx` (UID, PWD, SB, MSG, DEST, ST); the reply `CREDIT,SENDED,COST,UNSEND,BATCH_ID`. */
export function every8dGateway(settings: { url: string; uid: string; pwd: string }, fetcher: Fetch = fetch): SmsTransport {
  return {
    kind: "every8d",
    async send({ to, text }) {
      const form = new URLSearchParams({ UID: settings.uid, PWD: settings.pwd, SB: "", MSG: text, DEST: localNumber(to), ST: "" });
      const response = await fetcher(`${settings.url}/API21/HTTP/sendSMS.ashx`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
        body: form.toString(),
        signal: AbortSignal.timeout(10_000),
      });
      const [credit = "", sent = ""] = (await response.text()).trim().split(",");
      // A negative credit is a refusal (its code stands where the count would be).
      if (!response.ok || !(Number(credit) >= 0) || !(Number(sent) >= 1)) {
        throw new Error(`Every8d refused the text: HTTP ${response.status}, credit ${credit || "missing"}`);
      }
    },
  };
}

interface TwilioSettings {
  url: string;
  accountSid: string;
  authToken: string;
  serviceSid: string;
}

const twilioHeaders = (settings: TwilioSettings) => ({
  authorization: `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString("base64")}`,
  "content-type": "application/x-www-form-urlencoded",
});

/**
 * Twilio Verify: Twilio makes and texts the code itself (a verification, channel `sms`) and checks it
 * (`twilioCheck`). It sends nothing else: a notice through it is given up at once, and the operator is told.
 */
export function twilioVerifyGateway(settings: TwilioSettings, fetcher: Fetch = fetch): SmsTransport {
  return {
    kind: "twilio",
    async send({ to, purpose }) {
      if (purpose !== "code") throw new PermanentSmsError("Twilio Verify texts codes only; this notice was not sent by text");
      const response = await fetcher(`${settings.url}/v2/Services/${settings.serviceSid}/Verifications`, {
        method: "POST",
        headers: twilioHeaders(settings),
        body: new URLSearchParams({ To: to, Channel: "sms" }).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`Twilio Verify refused the verification: HTTP ${response.status}`);
    },
  };
}

/** Whether Twilio Verify approves `code` for `to`. */
export async function twilioCheck(settings: TwilioSettings, to: string, code: string, fetcher: Fetch = fetch): Promise<boolean> {
  const response = await fetcher(`${settings.url}/v2/Services/${settings.serviceSid}/VerificationCheck`, {
    method: "POST",
    headers: twilioHeaders(settings),
    body: new URLSearchParams({ To: to, Code: code }).toString(),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) return false;
  return ((await response.json()) as { status?: string }).status === "approved";
}

export const twilioSettings = (env: ServerEnv): TwilioSettings | undefined =>
  env.SMS_PROVIDER === "twilio" && env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.TWILIO_VERIFY_SERVICE_SID
    ? { url: env.TWILIO_URL, accountSid: env.TWILIO_ACCOUNT_SID, authToken: env.TWILIO_AUTH_TOKEN, serviceSid: env.TWILIO_VERIFY_SERVICE_SID }
    : undefined;

/** The SMS channel the configuration asks for; none on a public site without SMS_PROVIDER (texts then wait). */
export function smsGateway(env: ServerEnv, db: Kysely<Database>): SmsTransport | undefined {
  const provider = env.SMS_PROVIDER ?? (env.isLoopbackSite ? "mailbox" : undefined);
  const twilio = twilioSettings(env);
  if (provider === "mitake" && env.MITAKE_USERNAME && env.MITAKE_PASSWORD) return mitakeGateway({ url: env.MITAKE_URL, username: env.MITAKE_USERNAME, password: env.MITAKE_PASSWORD });
  if (provider === "every8d" && env.EVERY8D_UID && env.EVERY8D_PWD) return every8dGateway({ url: env.EVERY8D_URL, uid: env.EVERY8D_UID, pwd: env.EVERY8D_PWD });
  if (provider === "twilio" && twilio) return twilioVerifyGateway(twilio);
  return provider === "mailbox" ? smsMailboxTransport(db) : undefined;
}
