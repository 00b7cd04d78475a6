import { describe, expect, it } from "vitest";
import { enqueueMail, retryDelayMs, startMailSender } from "~/features/mail/outbox.server";
import type { MailMessage, MailTransport } from "~/features/mail/mail-transport.server";
import { createLogger } from "~/services/logger.server";
import { describeEachDatabase } from "~tests/helpers/databases";

const logger = createLogger("silent");
const message = (to: string): MailMessage => ({ to, subject: "主旨", text: "內容", html: "<p>內容</p>" });

function recordingTransport(failFirst = 0): MailTransport & { sent: string[] } {
  let failures = failFirst;
  const sent: string[] = [];
  return {
    kind: "mailbox",
    sent,
    async send(mail) {
      if (failures > 0) {
        failures -= 1;
        throw new Error("SMTP is away");
      }
      sent.push(mail.to);
    },
    check: async () => true,
  };
}

describeEachDatabase("mail outbox", (database) => {
  it("keeps nothing from a transaction that rolls back, and delivers what committed", async () => {
    const { db, dialect } = database().handle;
    await expect(
      db.transaction().execute(async (trx) => {
        await enqueueMail(trx, message("rolled-back@example.com"));
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    await db.transaction().execute((trx) => enqueueMail(trx, message("committed@example.com")));

    const transport = recordingTransport();
    const sender = startMailSender({ db, dialect, transport, logger, pollMs: 60_000 });
    await sender.runOnce();
    await sender.stop();
    expect(transport.sent).toEqual(["committed@example.com"]);
    const row = await db.selectFrom("mail_outbox").selectAll().where("recipient", "=", "committed@example.com").executeTakeFirstOrThrow();
    expect(row.sent_at).not.toBeNull();
    expect(row.attempts).toBe(1);
  });

  it("retries a failed delivery after its back-off and then marks it sent", async () => {
    const { db, dialect } = database().handle;
    const id = await enqueueMail(db, message("retry@example.com"));
    const transport = recordingTransport(1);
    const sender = startMailSender({ db, dialect, transport, logger, pollMs: 60_000 });
    await sender.runOnce();
    const failed = await db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(failed.sent_at).toBeNull();
    expect(failed.last_error).toBe("SMTP is away");
    expect(Date.parse(failed.next_attempt_at)).toBeGreaterThan(Date.now() + retryDelayMs(1) - 1_000);

    // Not due yet: nothing goes out. Once due, it does.
    await sender.runOnce();
    expect(transport.sent).toEqual([]);
    await db.updateTable("mail_outbox").set({ next_attempt_at: new Date(0).toISOString() }).where("id", "=", id).execute();
    await sender.runOnce();
    await sender.stop();
    expect(transport.sent).toEqual(["retry@example.com"]);
    const sent = await db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(sent.attempts).toBe(2);
    expect(sent.sent_at).not.toBeNull();
  });

  it("delivers each email once when several senders share the database", async () => {
    const { db, dialect } = database().handle;
    const recipients = Array.from({ length: 60 }, (_, index) => `many-${index}@example.com`);
    for (const to of recipients) await enqueueMail(db, message(to));
    const transports = [recordingTransport(), recordingTransport(), recordingTransport()];
    const senders = transports.map((transport) => startMailSender({ db, dialect, transport, logger, pollMs: 60_000, batchSize: 5 }));
    await Promise.all(senders.map((sender) => sender.runOnce()));
    await Promise.all(senders.map((sender) => sender.stop()));
    const delivered = transports.flatMap((transport) => transport.sent).filter((to) => to.startsWith("many-"));
    expect(delivered.sort()).toEqual([...recipients].sort());
  });
});

describe("retryDelayMs", () => {
  it("doubles from 5 s and stops at an hour", () => {
    expect([1, 2, 3].map(retryDelayMs)).toEqual([5_000, 10_000, 20_000]);
    expect(retryDelayMs(30)).toBe(3_600_000);
  });
});
