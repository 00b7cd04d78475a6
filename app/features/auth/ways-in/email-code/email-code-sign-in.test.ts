import { afterAll, beforeAll, expect, it } from "vitest";
import { TOTP } from "otpauth";
import { sql } from "kysely";
import { register } from "prom-client";
import { getMigrations } from "better-auth/db/migration";
import { authOptions } from "~/features/auth/auth.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "~tests/integration/auth-server";
import { newEmail, signedUpAccount, verifiedAccount } from "~tests/integration/factories";

/** Sign-in by a mailed code (ways-in/email-code/): one case per rule of its rows, on both databases. */
describeEachDatabase("email-code sign-in", (database) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(database(), {
      RATE_LIMIT_MAIL_PER_IP: "100/3600",
      RATE_LIMIT_SIGN_IN_PER_IP: "200/60",
      RATE_LIMIT_PASSWORD_RESET_PER_ACCOUNT: "20/3600",
      RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT: "8/900",
    });
  });
  afterAll(async () => {
    await server.close();
  });
  const db = () => server.service.database.db;

  /** The code mails to `email` so far. */
  const codeMails = async (email: string) =>
    (await db().selectFrom("dev_mail").select(["subject", "text"]).where("recipient", "=", email).orderBy("created_at", "desc").execute()).filter(({ subject }) => subject.includes("登入驗證碼"));

  /** Asks a code for `email` and reads it from the newest mail in the development mailbox. */
  async function mailedCode(email: string, client: AuthTestClient = server.client()): Promise<string> {
    const before = (await codeMails(email)).length;
    const sent = await client.post("/email-otp/send-verification-otp", { email, type: "sign-in" });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const mails = await codeMails(email);
      if (mails.length > before) return /登入驗證碼是 (\d{6})/.exec(mails[0]!.text)?.[1] ?? "";
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no code mailed to ${email}`);
  }

  it("needs no table or column Better Auth does not find", async () => {
    const { toBeCreated, toBeAdded } = await getMigrations(authOptions(server.service));
    expect({ toBeCreated, toBeAdded }).toEqual({ toBeCreated: [], toBeAdded: [] });
  });

  it("mails a code in Chinese to an existing account and signs in with it, once; the code is stored hashed", async () => {
    const { email, id } = await verifiedAccount(server);
    const code = await mailedCode(email);
    expect(code).toMatch(/^\d{6}$/);
    const [mail] = await codeMails(email);
    expect(mail?.subject).toMatch(/【.+】你的登入驗證碼/);
    expect(mail?.text).toContain("10 分鐘內有效");
    expect(mail?.text).toContain("/login/email-code");
    // The verification table holds only the code's hash (the table is Better Auth's own, outside the schema types).
    const stored = await sql<{ value: string }>`select value from verification where identifier = ${`sign-in-otp-${email}`}`.execute(db());
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]?.value).not.toContain(code);

    const browser = server.client();
    const signedIn = await browser.post("/sign-in/email-otp", { email: email.toUpperCase(), otp: code });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect((await browser.me())?.uid).toBe(id);
    // A mailbox has no registered `amr` value (as the emailed link): the session says no password, no text.
    const newest = await db().selectFrom("session").select("amr").where("userId", "=", id).orderBy("createdAt", "desc").executeTakeFirstOrThrow();
    expect(newest.amr ?? "").toBe("");
    // A sign-in is no change of the account: no security notice but the new browser's.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const notices = (await db().selectFrom("dev_mail").select("subject").where("recipient", "=", email).execute()).filter(({ subject }) => subject.includes("安全通知"));
    expect(notices.filter(({ subject }) => !subject.includes("新裝置登入"))).toEqual([]);
    // Single use.
    const again = await server.client().post<{ code: string }>("/sign-in/email-otp", { email, otp: code });
    expect(again.status).toBe(400);
  });

  it("answers an unknown address as a known one, mails nothing and never makes an account", async () => {
    const known = await verifiedAccount(server);
    const unknown = newEmail("nobody");
    const answers = await Promise.all([known.email, unknown].map((email) => server.client().post("/email-otp/send-verification-otp", { email, type: "sign-in" })));
    const [first, second] = answers.map(({ status, body }) => ({ status, body }));
    expect(first).toEqual({ status: 200, body: { success: true } });
    expect(second).toEqual(first);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await codeMails(unknown)).toEqual([]);
    for (const otp of ["000000", "123456"]) {
      const refused = await server.client().post<{ code: string; message: string }>("/sign-in/email-otp", { email: unknown, otp });
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe("auth/invalid-verification-code");
    }
    expect(await db().selectFrom("user").select("id").where("email", "=", unknown).executeTakeFirst()).toBeUndefined();
  });

  it("makes sign-in codes only, whatever type the body names", async () => {
    const { email } = await verifiedAccount(server);
    expect((await server.client().post("/email-otp/send-verification-otp", { email, type: "forget-password" })).status).toBe(200);
    const identifiers = await sql<{ identifier: string }>`select identifier from verification where identifier like ${`%-otp-${email}`}`.execute(db());
    expect(identifiers.rows.map((row) => row.identifier)).toEqual([`sign-in-otp-${email}`]);
  });

  it("says a wrong code and an expired one in Chinese; five wrong tries spend the code", async () => {
    const { email } = await verifiedAccount(server);
    let code = await mailedCode(email);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const refused = await server.client().post<{ code: string; message: string }>("/sign-in/email-otp", { email, otp: wrong });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: "auth/invalid-verification-code", message: "驗證碼無效" });
    }
    const spent = await server.client().post<{ code: string; message: string }>("/sign-in/email-otp", { email, otp: code });
    expect(spent.status).not.toBe(200);
    expect(spent.body.code).toBe("auth/email-code-expired");
    expect(spent.body.message).toMatch(/重新寄送驗證碼/);

    code = await mailedCode(email);
    const past = server.service.database.dialect === "postgres" ? new Date(Date.now() - 1000) : new Date(Date.now() - 1000).toISOString();
    await sql`update verification set "expiresAt" = ${past} where identifier = ${`sign-in-otp-${email}`}`.execute(db());
    const late = await server.client().post<{ code: string; message: string }>("/sign-in/email-otp", { email, otp: code });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ code: "auth/email-code-expired", message: "驗證碼已過期或失效，請重新寄送驗證碼到你的信箱" });
  });

  it("counts wrong codes toward the address's lockout, which then refuses the password too", async () => {
    const { email, password } = await verifiedAccount(server);
    const statuses: number[] = [];
    // 8 failures allowed (RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT above); new codes keep the tries from running out.
    for (let attempt = 0; attempt < 9; attempt += 1) {
      if (attempt % 4 === 0) await mailedCode(email);
      statuses.push((await server.client().post("/sign-in/email-otp", { email, otp: "000000" })).status);
    }
    expect(statuses.slice(0, 8).every((status) => status === 400)).toBe(true);
    expect(statuses[8]).toBe(429);
    expect((await server.client().post("/sign-in/email", { email, password })).status).toBe(429);
  });

  it("asks an account with two-step sign-in for its authenticator code after the mailed code", async () => {
    const { client, email, password } = await verifiedAccount(server);
    const enabled = await client.post<{ totpURI: string }>("/two-factor/enable", { password });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    const secret = new URL(enabled.body.totpURI).searchParams.get("secret") ?? "";
    expect((await client.post("/two-factor/verify-totp", { code: new TOTP({ secret, digits: 6, period: 30 }).generate() })).status).toBe(200);

    const other = server.client();
    const answer = await other.post<{ twoFactorRedirect?: boolean }>("/sign-in/email-otp", { email, otp: await mailedCode(email) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.twoFactorRedirect).toBe(true);
    expect(await other.me()).toBeNull();
  });

  it("proves the address: on an unverified account nothing set before it stays, and the owner is told", async () => {
    // Someone signed up with the parent's address and a password of their own, and set up two-step sign-in.
    const { client, email, password, id } = await signedUpAccount(server);
    expect((await client.post("/two-factor/enable", { password })).status).toBe(200);
    const owner = server.client();
    const signedIn = await owner.post<{ twoFactorRedirect?: boolean }>("/sign-in/email-otp", { email, otp: await mailedCode(email) });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.twoFactorRedirect).toBeUndefined();
    expect((await owner.me())?.uid).toBe(id);
    // The two-step column is the two-factor plugin's own, outside the schema types.
    const [user] = (await sql<{ emailVerified: unknown; twoFactorEnabled: unknown }>`select "emailVerified", "twoFactorEnabled" from "user" where id = ${id}`.execute(db())).rows;
    expect(Boolean(user?.emailVerified)).toBe(true);
    expect(Boolean(user?.twoFactorEnabled)).toBe(false);
    // The stranger's password and session are gone.
    expect((await server.client().post("/sign-in/email", { email, password })).status).toBe(401);
    expect(await client.me()).toBeNull();
    expect((await server.latestMail(email, /安全通知/)).subject).toMatch(/安全通知/);
  });

  it("limits codes per typed address across client addresses, and per client address", async () => {
    const { email } = await verifiedAccount(server);
    const limited = await startAuthServer(database(), { RATE_LIMIT_PASSWORD_RESET_PER_ACCOUNT: "2/3600", RATE_LIMIT_MAIL_PER_IP: "3/3600" });
    try {
      const perAddress = [];
      for (let attempt = 0; attempt < 3; attempt += 1) perAddress.push((await limited.client().post("/email-otp/send-verification-otp", { email, type: "sign-in" })).status);
      expect(perAddress).toEqual([200, 200, 429]);
      const one = limited.client();
      const perIp = [];
      for (let attempt = 0; attempt < 4; attempt += 1) perIp.push((await one.post("/email-otp/send-verification-otp", { email: newEmail(), type: "sign-in" })).status);
      expect(perIp).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });

  it("audits the sign-in and the request, and counts the sign-in in the metrics", async () => {
    const { email, id } = await verifiedAccount(server);
    const counted = async () =>
      ((await register.getSingleMetric("site_sign_ins_total")?.get())?.values ?? []).find((value) => value.labels.way === "/sign-in/email-otp" && value.labels.outcome === "success")?.value ?? 0;
    const before = await counted();
    const browser = server.client();
    const code = await mailedCode(email, browser);
    expect((await browser.post("/sign-in/email-otp", { email, otp: code })).status).toBe(200);
    expect((await counted()) - before).toBe(1);
    const recorded = await db().selectFrom("security_record").select(["event", "outcome"]).where("user_id", "=", id).where("ip", "=", browser.ip).execute();
    expect(recorded.filter((record) => record.event !== "new-device")).toEqual(expect.arrayContaining([{ event: "sign-in", outcome: "success" }]));
    expect(recorded.filter((record) => record.event === "sign-in")).toHaveLength(1);
  });

  it("signs in from a browser whose session is old: a sign-in needs no recent one", async () => {
    const { client, email, id } = await verifiedAccount(server);
    const then = new Date(Date.now() - 24 * 3600 * 1000);
    await db()
      .updateTable("session")
      .set({ createdAt: server.service.database.dialect === "postgres" ? then : (then.toISOString() as unknown as Date) })
      .where("userId", "=", id)
      .execute();
    const answer = await client.post("/sign-in/email-otp", { email, otp: await mailedCode(email, client) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await client.me())?.uid).toBe(id);
    // Signing in again changes nothing of the account: no security notice (a new browser's aside).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const notices = (await db().selectFrom("dev_mail").select("subject").where("recipient", "=", email).execute()).filter(({ subject }) => subject.includes("安全通知"));
    expect(notices.filter(({ subject }) => !subject.includes("新裝置登入"))).toEqual([]);
  });

  it("switches off the plugin's endpoints the site does by link", async () => {
    const { email } = await verifiedAccount(server);
    for (const path of ["/email-otp/check-verification-otp", "/email-otp/verify-email", "/email-otp/request-password-reset", "/forget-password/email-otp", "/email-otp/reset-password"]) {
      const answer = await server.client().post(path, { email, otp: "000000", type: "sign-in", password: "lantern-harbour-9" });
      expect(answer.status, path).toBe(404);
    }
  });
});
