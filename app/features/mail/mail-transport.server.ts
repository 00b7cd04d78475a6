import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import nodemailer from "nodemailer";
import type { Database } from "~/db/schema";
import type { SmsTransport } from "./outbox.server";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. List-Unsubscribe on notices (SMTP only; the development mailbox keeps the body). */
  headers?: Record<string, string>;
}

/** Where emails go: SMTP in real deployments, the development mailbox on a loopback site without SMTP. */
export interface MailTransport {
  readonly kind: "smtp" | "mailbox";
  send(message: MailMessage): Promise<void>;
  /** A cheap "does it answer" probe for the self-test page. */
  check(): Promise<boolean>;
}

export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  password?: string;
  from: string;
}

export function smtpTransport(settings: SmtpSettings): MailTransport {
  const transporter = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: settings.user ? { user: settings.user, pass: settings.password } : undefined,
  });
  return {
    kind: "smtp",
    async send(message) {
      await transporter.sendMail({ from: settings.from, ...message });
    },
    check: () => transporter.verify().then(() => true, () => false),
  };
}

/** Stores every email in the database, where /dev/mailbox and the end-to-end tests read it back. */
export function mailboxTransport(db: Kysely<Database>): MailTransport {
  return {
    kind: "mailbox",
    async send(message) {
      await db
        .insertInto("dev_mail")
        .values({
          id: randomUUID(),
          recipient: message.to.toLowerCase(),
          subject: message.subject,
          text: message.text,
          html: message.html,
          created_at: new Date().toISOString(),
        })
        .execute();
    },
    check: () =>
      db
        .selectFrom("dev_mail")
        .select("id")
        .limit(1)
        .execute()
        .then(() => true, () => false),
  };
}

/** Stores every text message in the development mailbox too (subject 簡訊), beside the mail, found by its number. */
export function smsMailboxTransport(db: Kysely<Database>): SmsTransport {
  const mailbox = mailboxTransport(db);
  return { kind: "mailbox", send: (message) => mailbox.send({ to: message.to, subject: "簡訊", text: message.text, html: "" }) };
}
