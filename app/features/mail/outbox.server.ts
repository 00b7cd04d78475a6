import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Logger } from "pino";
import type { Database } from "~/db/schema";
import type { Dialect } from "~/db/connection.server";
import type { MailMessage, MailTransport } from "./mail-transport.server";

/**
 * The transactional outbox (docs/decisions/601-mail-outbox.md). Whoever wants an email sent writes it here with
 * `enqueueMail`, in the same transaction as the change it belongs to; the sender delivers it afterwards, retries
 * with back-off, marks it sent, and picks up after a restart. Several instances may run a sender each: a row is
 * claimed for a lease before it is sent (FOR UPDATE SKIP LOCKED on PostgreSQL; SQLite has one writer anyway).
 * Delivery is at-least-once: a crash between sending and marking sends that one email again.
 */
export type MailExecutor = Kysely<Database> | Transaction<Database>;

const listeners = new Set<() => void>();

/** Stores one email for delivery. Pass the transaction that writes the change the email is about. */
export async function enqueueMail(executor: MailExecutor, message: MailMessage): Promise<string> {
  const id = randomUUID();
  const now = new Date().toISOString();
  await executor
    .insertInto("mail_outbox")
    .values({
      id,
      recipient: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      created_at: now,
      attempts: 0,
      next_attempt_at: now,
      headers: message.headers ? JSON.stringify(message.headers) : null,
    })
    .execute();
  // Wake this process's sender; if the transaction has not committed yet, the next poll finds the row.
  for (const listener of listeners) listener();
  return id;
}

/**
 * A text message. It travels through the same outbox as mail (its channel: the recipient is an E.164 number,
 * which no address starts with), so it has the same lease, retries and survival of a crash.
 */
export interface SmsMessage {
  /** E.164, `+886912345678`. */
  to: string;
  text: string;
  /** A sign-in code or a notice (Twilio Verify sends codes only, and makes them itself). Kept in the row's subject. */
  purpose: "code" | "notice";
}

/** Where text messages go: a gateway (sms-gateways.server.ts) or, on a loopback site, the development mailbox. */
export interface SmsTransport {
  readonly kind: string;
  send(message: SmsMessage): Promise<void>;
}

export type OutboxChannel = "email" | "sms" | "backchannel-logout";
/** A row's channel, from its recipient: an E.164 number, an app's https (or loopback http) address, or an email. */
export const channelOf = (recipient: string): OutboxChannel =>
  recipient.startsWith("+") ? "sms" : /^https?:\/\//.test(recipient) ? "backchannel-logout" : "email";

/**
 * A notice to an app's backend that one of its sign-ins ended (OpenID Connect Back-Channel Logout 1.0). It goes
 * through the outbox like mail, in the transaction that ends the sign-in, so it is retried while the app is down
 * and survives a restart; the row keeps the claims, and the logout token is signed when each attempt is made (a
 * retry an hour later still carries a fresh `iat`/`exp`, with the same `jti`).
 */
export interface BackchannelNotice {
  /** The app's `backchannel_logout_uri`. */
  uri: string;
  claims: Record<string, unknown>;
}

/** Where back-channel notices go: signs the logout token and posts it (app-sign-in). */
export interface BackchannelTransport {
  send(notice: BackchannelNotice): Promise<void>;
  /** Queues the notices of sign-ins that ended since the last pass; run before each pass by the delivering process. */
  collect(): Promise<unknown>;
}

export function enqueueBackchannelLogout(executor: MailExecutor, notice: BackchannelNotice): Promise<string> {
  if (channelOf(notice.uri) !== "backchannel-logout") throw new Error("a back-channel address is an http(s) URL");
  return enqueueMail(executor, { to: notice.uri, subject: "backchannel-logout", text: JSON.stringify(notice.claims), html: "" });
}

/** Stores one text message for delivery, like `enqueueMail`. Never log its text: it may hold a code. */
export function enqueueSms(executor: MailExecutor, message: SmsMessage): Promise<string> {
  if (channelOf(message.to) !== "sms") throw new Error("an SMS recipient is an E.164 number");
  return enqueueMail(executor, { to: message.to, subject: message.purpose, text: message.text, html: "" });
}

export interface MailSenderOptions {
  db: Kysely<Database>;
  dialect: Dialect;
  transport: MailTransport;
  /** The SMS channel; without one, text messages wait (and their error says why) until one is configured. */
  sms?: SmsTransport;
  logger: Logger;
  /** How often due rows are looked for when nothing wakes the sender. */
  pollMs?: number;
  /** How long a claimed row belongs to this sender before another may take it. */
  leaseMs?: number;
  maxAttempts?: number;
  batchSize?: number;
  /** Polling begins once this resolves (the start-up migrations); until then enqueued rows simply wait. */
  startWhen?: Promise<unknown>;
  /** Only writes to the outbox and never delivers: a cluster worker other than the first (decision 703). */
  passive?: boolean;
}

export interface MailSender {
  /** The back-channel channel, given by the app's sign-in when it is built; until then those rows wait. */
  useBackchannel(transport: BackchannelTransport): void;
  /** Delivers what is due now; resolves when this pass is done. */
  runOnce(): Promise<number>;
  /** Stops polling and waits (up to `deadlineMs`) for what is due to go out. */
  stop(deadlineMs?: number): Promise<void>;
}

/** Back-off after the nth failed attempt: 5 s, 10 s, 20 s, … at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

export function startMailSender(options: MailSenderOptions): MailSender {
  const { db, dialect, transport, logger } = options;
  const pollMs = options.pollMs ?? 1_000;
  const leaseMs = options.leaseMs ?? 60_000;
  const maxAttempts = options.maxAttempts ?? 12;
  const batchSize = options.batchSize ?? 20;
  let stopped = false;
  let backchannel: BackchannelTransport | undefined;
  let running: Promise<number> | undefined;
  let again = false;

  async function claim(): Promise<Database["mail_outbox"][]> {
    const now = new Date();
    return db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom("mail_outbox")
        .selectAll()
        .where("sent_at", "is", null)
        .where("failed_at", "is", null)
        .where("next_attempt_at", "<=", now.toISOString())
        .orderBy("next_attempt_at")
        .limit(batchSize);
      if (dialect === "postgres") query = query.forUpdate().skipLocked();
      const rows = await query.execute();
      if (rows.length) {
        await trx
          .updateTable("mail_outbox")
          .set((eb) => ({ attempts: eb("attempts", "+", 1), next_attempt_at: new Date(now.getTime() + leaseMs).toISOString() }))
          .where("id", "in", rows.map((row) => row.id))
          .execute();
      }
      return rows;
    });
  }

  async function deliver(row: Database["mail_outbox"]): Promise<void> {
    const attempts = row.attempts + 1;
    try {
      const headers = row.headers ? (JSON.parse(row.headers) as Record<string, string>) : undefined;
      const channel = channelOf(row.recipient);
      if (channel === "sms") {
        if (!options.sms) throw new Error("no SMS gateway is configured (SMS_PROVIDER)");
        await options.sms.send({ to: row.recipient, text: row.text, purpose: row.subject === "code" ? "code" : "notice" });
      } else if (channel === "backchannel-logout") {
        if (!backchannel) throw new Error("the app's sign-in has not started its back-channel sender yet");
        await backchannel.send({ uri: row.recipient, claims: JSON.parse(row.text) as Record<string, unknown> });
      } else {
        await transport.send({ to: row.recipient, subject: row.subject, text: row.text, html: row.html, ...(headers ? { headers } : {}) });
      }
      await db.updateTable("mail_outbox").set({ sent_at: new Date().toISOString(), last_error: null }).where("id", "=", row.id).execute();
    } catch (error) {
      // A gateway that can never send this row (PermanentSmsError) gives it up at once.
      const giveUp = attempts >= maxAttempts || (error instanceof Error && "permanent" in error && error.permanent === true);
      const message = error instanceof Error ? error.message : String(error);
      logger[giveUp ? "error" : "warn"]({ err: error, mailId: row.id, channel: channelOf(row.recipient), attempts }, giveUp ? "mail given up" : "mail delivery failed, will retry");
      await db
        .updateTable("mail_outbox")
        .set({
          last_error: message.slice(0, 500),
          next_attempt_at: new Date(Date.now() + retryDelayMs(attempts)).toISOString(),
          failed_at: giveUp ? new Date().toISOString() : null,
        })
        .where("id", "=", row.id)
        .execute()
        .catch((markError: unknown) => logger.error({ err: markError, mailId: row.id }, "could not record mail failure"));
    }
  }

  async function pass(): Promise<number> {
    // Ended app sign-ins are looked for first; a failure there never holds mail back.
    await backchannel?.collect().catch((error: unknown) => logger.warn({ err: error }, "back-channel notices not collected"));
    let delivered = 0;
    for (;;) {
      const rows = await claim();
      await Promise.all(rows.map(deliver));
      delivered += rows.length;
      if (rows.length < batchSize) return delivered;
    }
  }

  function runOnce(): Promise<number> {
    if (options.passive) return Promise.resolve(0);
    if (running) {
      again = true;
      return running;
    }
    running = pass()
      .catch((error: unknown) => {
        // The database may be away for a while; the next poll tries again.
        logger.warn({ err: error }, "mail outbox not reachable");
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          void runOnce();
        }
      });
    return running;
  }

  let started = false;
  const wake = () => {
    if (started && !stopped) setImmediate(() => void runOnce());
  };
  listeners.add(wake);
  let timer: NodeJS.Timeout | undefined;
  void (options.startWhen ?? Promise.resolve()).then(() => {
    if (stopped) return;
    started = true;
    timer = setInterval(() => void runOnce(), pollMs);
    timer.unref();
    void runOnce();
  });

  return {
    useBackchannel(transport) {
      backchannel = transport;
    },
    runOnce,
    async stop(deadlineMs = 5_000) {
      stopped = true;
      listeners.delete(wake);
      clearInterval(timer);
      // Drain: what is already due goes out now, within the deadline; the rest stays for the next start.
      const drain = (async () => {
        await running;
        await runOnce();
      })();
      await Promise.race([drain, new Promise((resolve) => setTimeout(resolve, deadlineMs).unref())]);
    },
  };
}
