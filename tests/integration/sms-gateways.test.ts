import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { enqueueSms, startMailSender } from "~/features/mail/outbox.server";
import { every8dGateway, mitakeGateway, twilioCheck, twilioVerifyGateway } from "~/features/mail/sms-gateways.server";
import type { MailTransport } from "~/features/mail/mail-transport.server";
import { createLogger } from "~/services/logger.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { fakeGateways } from "~tests/helpers/fake-sms-gateways";

const fake = fakeGateways();
let url = "";
beforeAll(async () => {
  url = await fake.start();
});
afterAll(async () => {
  await fake.stop();
});

const text = "【任務小勇士】你的驗證碼是 654321，5 分鐘內有效。";

describe("三竹 Mitake", () => {
  const gateway = () => mitakeGateway({ url, username: "taskhero", password: "s3cret" });

  it("posts an INI body to SmSendPost.asp with the credentials and UTF-8 in the query, the number as 09…", async () => {
    await gateway().send({ to: "+886912345678", text, purpose: "code" });
    const request = fake.received.at(-1)!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/api/mtk/SmSendPost.asp");
    expect(Object.fromEntries(request.query)).toEqual({ username: "taskhero", password: "s3cret", encoding: "UTF8" });
    expect(request.body).toBe(`[0]\r\ndstaddr=0912345678\r\nsmbody=${text}\r\n`);
  });

  it("treats an error status code as a refusal", async () => {
    fake.answerNext(200, "[0]\r\nstatuscode=e\r\nError=帳號密碼錯誤\r\n");
    await expect(gateway().send({ to: "+886912345678", text, purpose: "code" })).rejects.toThrow(/statuscode e/);
    fake.answerNext(500, "");
    await expect(gateway().send({ to: "+886912345678", text, purpose: "code" })).rejects.toThrow(/HTTP 500/);
  });
});

describe("Every8d", () => {
  const gateway = () => every8dGateway({ url, uid: "taskhero", pwd: "s3cret" });

  it("posts UID, PWD, SB, MSG, DEST and ST to API21/HTTP/sendSMS.ashx and reads CREDIT,SENDED,COST,UNSEND,BATCH_ID", async () => {
    await gateway().send({ to: "+886912345678", text, purpose: "code" });
    const request = fake.received.at(-1)!;
    expect(request.path).toBe("/API21/HTTP/sendSMS.ashx");
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ UID: "taskhero", PWD: "s3cret", SB: "", MSG: text, DEST: "0912345678", ST: "" });
  });

  it("treats a negative credit as a refusal", async () => {
    fake.answerNext(200, "-4,Invalid DEST");
    await expect(gateway().send({ to: "+886912345678", text, purpose: "code" })).rejects.toThrow(/credit -4/);
  });
});

describe("Twilio Verify", () => {
  const settings = () => ({ url, accountSid: "AC123", authToken: "token", serviceSid: "VA456" });

  it("starts an SMS verification with basic auth, and checks the code Twilio made", async () => {
    await twilioVerifyGateway(settings()).send({ to: "+886912345678", text: "", purpose: "code" });
    const request = fake.received.at(-1)!;
    expect(request.path).toBe("/v2/Services/VA456/Verifications");
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from("AC123:token").toString("base64")}`);
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({ To: "+886912345678", Channel: "sms" });
    expect(await twilioCheck(settings(), "+886912345678", "123456")).toBe(true);
    expect(await twilioCheck(settings(), "+886912345678", "000000")).toBe(false);
  });

  it("refuses a notice for good: Verify texts codes only", async () => {
    await expect(twilioVerifyGateway(settings()).send({ to: "+886912345678", text: "通知", purpose: "notice" })).rejects.toMatchObject({ permanent: true });
  });
});

const noMail: MailTransport = { kind: "mailbox", send: async () => {}, check: async () => true };

describeEachDatabase("texts through the outbox", (database) => {
  it("keeps a refused text, shows the refusal to the operator without the code, and sends it on the retry", async () => {
    const { db, dialect } = database().handle;
    const logger = createLogger("silent");
    const warn = vi.spyOn(logger, "warn");
    const number = `+8869${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    const id = await enqueueSms(db, { to: number, text, purpose: "code" });
    const sender = startMailSender({ db, dialect, transport: noMail, sms: mitakeGateway({ url, username: "taskhero", password: "s3cret" }), logger, pollMs: 60_000 });
    fake.answerNext(200, "[0]\r\nstatuscode=*\r\n");
    await sender.runOnce();
    let row = await db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.sent_at).toBeNull();
    expect(row.failed_at).toBeNull();
    expect(row.last_error).toMatch(/Mitake refused/);
    const logged = JSON.stringify(warn.mock.calls);
    expect(logged).toContain('"channel":"sms"');
    expect(logged).not.toContain("654321");
    expect(logged).not.toContain(number);

    // The back-off has passed: the retry goes out.
    await db.updateTable("mail_outbox").set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() }).where("id", "=", id).execute();
    await sender.runOnce();
    await sender.stop();
    row = await db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.sent_at).not.toBeNull();
    expect(fake.received.at(-1)?.body).toContain("dstaddr=09");
  });
});
