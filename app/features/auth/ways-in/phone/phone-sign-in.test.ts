import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { TOTP } from "otpauth";
import { sql } from "kysely";
import { getMigrations } from "better-auth/db/migration";
import { authOptions } from "~/features/auth/auth.server";
import { toE164 } from "~/features/auth/phone-number";
import { getLogger } from "~/services/logger.server";
import { devMailboxApi } from "~/features/dev-tools/dev-mailbox.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "~tests/integration/auth-server";

const password = "kite-river-7";

/** A fresh Taiwanese mobile number in E.164 (+8869 and eight digits). */
const newNumber = () => `+8869${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
/** The same number as a parent types it: 0912-345-678. */
const typedForm = (e164: string) => `0${e164.slice(4, 7)}-${e164.slice(7, 10)}-${e164.slice(10)}`;

describe("a typed phone number", () => {
  it("is stored as E.164 whichever usual way a Taiwanese mobile is typed", () => {
    for (const typed of ["0912-345-678", "0912345678", "+886 912 345 678", "+886-912-345-678", "+886 0912 345 678", "00886912345678", "(0912) 345 678"]) {
      expect(toE164(typed)).toBe("+886912345678");
    }
  });
  it("refuses landlines, short numbers and other countries unless SMS_ALLOWED_COUNTRIES lists them", () => {
    for (const typed of ["02-2345-6789", "0912-345", "912345678", "+1 415 555 0100", "+81 90 1234 5678", "hello", ""]) expect(toE164(typed)).toBeNull();
    expect(toE164("+81 90 1234 5678", ["JP"])).toBe("+819012345678");
    expect(toE164("+1 415 555 0100", ["JP"])).toBeNull();
  });
});

describeEachDatabase("phone sign-in", (database) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(database(), { RATE_LIMIT_SMS_PER_IP: "50/3600", RATE_LIMIT_SIGN_IN_PER_IP: "200/60" });
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Clears the growing wait between two texts to `number`, as if it had passed. */
  const waitPassed = (number: string) => server.service.rateLimitStore.reset(`sms-wait:${number}`);

  /** Asks a code for `typed` and reads it back from the SMS in the development outbox. */
  async function textedCode(client: AuthTestClient, typed: string, e164 = toE164(typed) ?? typed): Promise<string> {
    // Only the code texts count: a security notice may be texted to the same number meanwhile.
    const codeTexts = async () =>
      (await server.service.database.db.selectFrom("dev_mail").select("text").where("recipient", "=", e164).orderBy("created_at", "desc").execute()).filter(({ text }) => text.includes("驗證碼是"));
    const before = (await codeTexts()).length;
    const sent = await client.post("/phone-number/send-otp", { phoneNumber: typed });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const texts = await codeTexts();
      if (texts.length > before) return /(\d{6})/.exec(texts[0]!.text)?.[1] ?? "";
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no text to ${e164}`);
  }

  /** Signs up by phone on a new client: the number typed the usual way, a display name. */
  async function phoneAccount(name = "陳媽媽") {
    const number = newNumber();
    const client = server.client();
    const code = await textedCode(client, typedForm(number), number);
    const verified = await client.post("/phone-number/verify", { phoneNumber: typedForm(number), code, name });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    return { client, number };
  }

  async function userByNumber(number: string) {
    return server.service.database.db.selectFrom("user").selectAll().where("phoneNumber", "=", number).executeTakeFirst();
  }

  /** A verified password account, signed in on the returned client. */
  async function passwordAccount() {
    const client = server.client();
    const email = `phone-${randomUUID().slice(0, 8)}@example.tw`;
    expect((await client.post("/sign-up/email", { email, password, name: "小華" })).status).toBe(200);
    const link = (await server.latestMail(email, /驗證/)).links.find((candidate) => candidate.includes("/verify-email")) ?? "";
    const token = new URL(link).searchParams.get("token") ?? "";
    expect((await server.client().get(`/verify-email?token=${encodeURIComponent(token)}`)).status).toBe(200);
    return { client, email };
  }

  /** Moves the account's sessions back in time, as if signed in `seconds` ago. */
  async function age(userId: string, seconds: number) {
    const then = new Date(Date.now() - seconds * 1000);
    await server.service.database.db
      .updateTable("session")
      .set({ createdAt: server.service.database.dialect === "postgres" ? then : (then.toISOString() as unknown as Date) })
      .where("userId", "=", userId)
      .execute();
  }

  it("has the phone columns Better Auth expects", async () => {
    const { toBeCreated, toBeAdded } = await getMigrations(authOptions(server.service));
    expect({ toBeCreated, toBeAdded }).toEqual({ toBeCreated: [], toBeAdded: [] });
  });

  it("signs up by phone with a display name, stores the number as E.164 and signs in again by a new code", async () => {
    const { client, number } = await phoneAccount("陳媽媽");
    const me = await client.me();
    expect(me?.displayName).toBe("陳媽媽");
    const user = await userByNumber(number);
    expect(user?.name).toBe("陳媽媽");
    expect(Boolean(user?.phoneNumberVerified)).toBe(true);

    await waitPassed(number);
    const again = server.client();
    const code = await textedCode(again, `+886 ${number.slice(4, 7)} ${number.slice(7, 10)} ${number.slice(10)}`, number);
    expect((await again.post("/phone-number/verify", { phoneNumber: typedForm(number), code })).status).toBe(200);
    expect((await again.me())?.uid).toBe(user?.id);
    // Each session made by a texted code says so (`amr`: sms), for the app's ID token (decision 190).
    const sessions = await server.service.database.db.selectFrom("session").select("amr").where("userId", "=", user!.id).execute();
    expect(sessions.map((session) => session.amr)).toEqual(["sms", "sms"]);
  });

  it("shows texts in the development mailbox's JSON list beside mail, by number (`?to=+886…`)", async () => {
    const number = newNumber();
    await textedCode(server.client(), number);
    for (const to of [number, encodeURIComponent(number)]) {
      const answer = await devMailboxApi(new Request(`${server.baseURL}/api/dev/mailbox?to=${to}`), server.service);
      const list = (await answer.json()) as { to: string; subject: string; text: string }[];
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ to: number, subject: "簡訊" });
      expect(list[0]?.text).toMatch(/驗證碼是 \d{6}，5 分鐘內有效/);
    }
  });

  it("refuses a number of another country with the catalogue's message", async () => {
    const answer = await server.client().post<{ code: string; message: string }>("/phone-number/send-otp", { phoneNumber: "+1 415 555 0100" });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("auth/invalid-phone-number");
    expect(answer.body.message).toMatch(/手機號碼/);
  });

  it("takes a code once, five tries at most, and not after five minutes", async () => {
    const number = newNumber();
    const client = server.client();
    let code = await textedCode(client, number);
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const refused = await client.post<{ code: string }>("/phone-number/verify", { phoneNumber: number, code: wrong });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe("auth/invalid-verification-code");
    }
    // Five wrong tries spend the code: even the right one is refused now.
    expect((await client.post("/phone-number/verify", { phoneNumber: number, code })).status).not.toBe(200);

    await waitPassed(number);
    code = await textedCode(client, number);
    expect((await client.post("/phone-number/verify", { phoneNumber: number, code })).status).toBe(200);
    expect((await server.client().post("/phone-number/verify", { phoneNumber: number, code })).status).toBe(400);

    await waitPassed(number);
    code = await textedCode(server.client(), number);
    // Five minutes later (the verification table is Better Auth's own, outside the app's schema types).
    const past = server.service.database.dialect === "postgres" ? new Date(Date.now() - 1000) : new Date(Date.now() - 1000).toISOString();
    await sql`update verification set "expiresAt" = ${past} where identifier like ${`%${number}%`}`.execute(server.service.database.db);
    const late = await server.client().post<{ code: string }>("/phone-number/verify", { phoneNumber: number, code });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe("auth/code-expired");
  });

  // Silent gap 1: a texted code is one factor; two-step sign-in applies to it.
  it("asks an account with two-step sign-in for its authenticator code after the texted code", async () => {
    const { client } = await passwordAccount();
    const number = newNumber();
    const attachCode = await textedCode(client, number);
    const attached = await client.post("/phone-number/verify", { phoneNumber: number, code: attachCode, updatePhoneNumber: true });
    expect(attached.status, JSON.stringify(attached.body)).toBe(200);
    const enabled = await client.post<{ totpURI: string }>("/two-factor/enable", { password });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    const secret = new URL(enabled.body.totpURI).searchParams.get("secret") ?? "";
    const confirmed = await client.post("/two-factor/verify-totp", { code: new TOTP({ secret, digits: 6, period: 30 }).generate() });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);

    await waitPassed(number);
    const other = server.client();
    const code = await textedCode(other, number);
    const answer = await other.post<{ twoFactorRedirect?: boolean }>("/phone-number/verify", { phoneNumber: number, code });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.twoFactorRedirect).toBe(true);
    expect(await other.me()).toBeNull();
  });

  // Silent gap 2: per address, per number (not `body.email`), and an audit line.
  it("limits texts per number across addresses with growing waits, and writes an audit line without the code", async () => {
    const info = vi.spyOn(getLogger(), "info");
    const warn = vi.spyOn(getLogger(), "warn");
    const number = newNumber();
    await textedCode(server.client(), number);
    const soon = await server.client().post<{ code: string }>("/phone-number/send-otp", { phoneNumber: typedForm(number) });
    expect(soon.status).toBe(429);
    expect(Number(soon.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(soon.headers.get("retry-after"))).toBeLessThanOrEqual(30);
    expect(soon.body.code).toBe("auth/too-many-requests");
    // 重新傳送驗證碼 too soon says how long to wait, the Retry-After in words.
    expect((soon.body as { message?: string }).message).toBe(`嘗試次數過多，請在 ${soon.headers.get("retry-after")} 秒後再試`);
    await waitPassed(number);
    await textedCode(server.client(), number);
    // RATE_LIMIT_SMS_PER_NUMBER: 3 an hour (every attempt counts), whichever address asks and however it is typed.
    await waitPassed(number);
    const fourth = await server.client().post("/phone-number/send-otp", { phoneNumber: `+886 ${number.slice(4)}` });
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get("retry-after"))).toBeGreaterThan(60);

    // The wait grows: 30 s after the first text of the day, 60 s after the second.
    const other = newNumber();
    await textedCode(server.client(), other);
    await waitPassed(other);
    await textedCode(server.client(), other);
    const longer = await server.client().post("/phone-number/send-otp", { phoneNumber: other });
    expect(longer.status).toBe(429);
    expect(Number(longer.headers.get("retry-after"))).toBeGreaterThan(30);
    expect(Number(longer.headers.get("retry-after"))).toBeLessThanOrEqual(60);

    const lines = [...info.mock.calls, ...warn.mock.calls].map((call) => JSON.stringify(call));
    expect(lines.some((line) => line.includes('"authEvent":"sms-code-request"') && line.includes('"outcome":"success"'))).toBe(true);
    expect(lines.some((line) => line.includes('"authEvent":"sms-code-request"') && line.includes('"reason":"wait"'))).toBe(true);
    const texts = await server.service.database.db.selectFrom("dev_mail").select("text").where("recipient", "=", number).execute();
    for (const { text } of texts) {
      const code = /(\d{6})/.exec(text)?.[1] ?? "";
      expect(lines.join("\n")).not.toContain(code);
    }
  });

  it("limits texts per address", async () => {
    const limited = await startAuthServer(database(), { RATE_LIMIT_SMS_PER_IP: "2/3600" });
    try {
      const client = limited.client();
      for (let attempt = 0; attempt < 2; attempt += 1) expect((await client.post("/phone-number/send-otp", { phoneNumber: newNumber() })).status).toBe(200);
      const third = await client.post("/phone-number/send-otp", { phoneNumber: newNumber() });
      expect(third.status).toBe(429);
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it("stops every text past SMS_DAILY_LIMIT with the catalogue's message, and logs when it is near", async () => {
    const capped = await startAuthServer(database(), { SMS_DAILY_LIMIT: "2" }, { rateLimitPrefix: `cap-${randomUUID()}:` });
    const warn = vi.spyOn(getLogger(), "warn");
    try {
      for (let attempt = 0; attempt < 2; attempt += 1) expect((await capped.client().post("/phone-number/send-otp", { phoneNumber: newNumber() })).status).toBe(200);
      const over = await capped.client().post<{ code: string; message: string }>("/phone-number/send-otp", { phoneNumber: newNumber() });
      expect(over.status).toBe(429);
      expect(over.body.code).toBe("auth/sms-quota-exceeded");
      expect(over.body.message).toMatch(/簡訊/);
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(warn.mock.calls.some(([, message]) => message === "SMS daily limit near")).toBe(true);
    } finally {
      await capped.close();
    }
  });

  // Silent gap 3: the verify endpoint both signs in and attaches; attaching is held to its own row.
  it("attaches a number only after a recent sign-in, and tells the account by mail and by text", async () => {
    const { client, email } = await passwordAccount();
    const user = await server.service.database.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    await age(user.id, 3600);
    const number = newNumber();
    const code = await textedCode(client, number);
    const stale = await client.post<{ code: string }>("/phone-number/verify", { phoneNumber: number, code, updatePhoneNumber: true });
    expect(stale.status).toBe(403);
    expect(stale.body.code).toBe("auth/requires-recent-login");
    expect(await userByNumber(number)).toBeUndefined();

    expect((await client.post("/confirm-identity", { password })).status).toBe(200);
    await waitPassed(number);
    const fresh = await textedCode(client, number);
    expect((await client.post("/phone-number/verify", { phoneNumber: number, code: fresh, updatePhoneNumber: true })).status).toBe(200);
    expect((await userByNumber(number))?.id).toBe(user.id);
    expect((await server.latestMail(email, /新增了登入方式/)).text).toContain(typedForm(number));
    const texts = await server.service.database.db.selectFrom("dev_mail").select("text").where("recipient", "=", number).execute();
    expect(texts.some(({ text }) => text.includes("新增了登入方式"))).toBe(true);
  });

  // Silent gap 4: a phone-only account is told too (its address is a placeholder).
  it("tells a phone-only account by text", async () => {
    const { client, number } = await phoneAccount();
    const enabled = await client.post<{ totpURI: string }>("/two-factor/enable", {});
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    const secret = new URL(enabled.body.totpURI).searchParams.get("secret") ?? "";
    expect((await client.post("/two-factor/verify-totp", { code: new TOTP({ secret, digits: 6, period: 30 }).generate() })).status).toBe(200);
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const texts = await server.service.database.db.selectFrom("dev_mail").select("text").where("recipient", "=", number).execute();
      if (texts.some(({ text }) => text.includes("已開啟兩步驟驗證"))) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the phone-only account was not told");
  });

  it("counts the number as a way in: the last one stays, and a removed number is told", async () => {
    const { client, number } = await phoneAccount();
    const last = await client.post<{ code: string }>("/phone-number/remove", {});
    expect(last.status).toBe(400);
    expect(last.body.code).toBe("auth/last-sign-in-method");
    expect((await userByNumber(number))?.phoneNumber).toBe(number);

    const { client: withPassword, email } = await passwordAccount();
    const other = newNumber();
    const code = await textedCode(withPassword, other);
    expect((await withPassword.post("/phone-number/verify", { phoneNumber: other, code, updatePhoneNumber: true })).status).toBe(200);
    // With the number, the password may go; then the number is the last way in.
    const methods = await withPassword.get<{ methods: { id: string; provider: string }[] }>("/sign-in-methods");
    const credential = methods.body.methods.find((method) => method.provider === "password");
    expect((await withPassword.post("/sign-in-methods/remove", { id: credential?.id })).status).toBe(200);
    expect((await withPassword.post("/phone-number/remove", {})).status).toBe(400);
    void email;
  });

  it("upgrades a guest by phone: the guest's session becomes the phone account", async () => {
    const guest = server.client();
    expect((await guest.post("/sign-in/anonymous", {})).status).toBe(200);
    const number = newNumber();
    const code = await textedCode(guest, number);
    expect((await guest.post("/phone-number/verify", { phoneNumber: number, code, name: "林爸爸" })).status).toBe(200);
    const me = await guest.me();
    expect(me?.isAnonymous).toBe(false);
    expect(me?.displayName).toBe("林爸爸");
  });
});
