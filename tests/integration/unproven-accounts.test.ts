import { randomUUID } from "node:crypto";
import { expect, it, beforeAll, afterAll } from "vitest";
import { authenticatorApp } from "~tests/helpers/authenticator-app";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";
import { signInWithDevProvider } from "./dev-provider-round-trip";

// Pre-account takeover (issue 25 item 2): someone signs up with a parent's address and a password of their own and
// never verifies; when the parent later proves the address (an emailed sign-in link, or a social provider that
// vouches for it), nothing set before the proof stays, and the parent is told.

const attackerPassword = "kite-river-7-attacker";
const newEmail = () => `parent-${randomUUID().slice(0, 8)}@example.tw`;
const noticeSubject = /已確認這個電子郵件是你的/;

describeEachDatabase("an account claimed before its owner arrives", (database) => {
  let server: AuthTestServer;
  const db = () => database().handle.db;

  beforeAll(async () => {
    server = await startAuthServer(database());
  });
  afterAll(async () => {
    await server.close();
  });

  /** The attacker signs up with the parent's address and never verifies; the sign-up session works. */
  async function claimInAdvance(email: string) {
    const attacker = server.client();
    expect((await attacker.post("/sign-up/email", { email, password: attackerPassword, name: "搶先註冊" })).status).toBe(200);
    const user = await attacker.me();
    expect(user?.emailVerified).toBe(false);
    // An app sign-in the attacker holds: a row of the session table, as app-sessions.server.ts writes them.
    const appSession = await db().selectFrom("session").selectAll().where("userId", "=", user?.uid ?? "").executeTakeFirstOrThrow();
    await db()
      .insertInto("session")
      .values({ ...appSession, id: `app-${randomUUID()}`, token: randomUUID() })
      .execute();
    return { attacker, userId: user?.uid ?? "" };
  }

  /** Asks a code for `number` (E.164) and reads it back from the text in the development outbox. */
  async function textedCode(client: AuthTestClient, number: string): Promise<string> {
    const codes = async () =>
      (await server.service.database.db.selectFrom("dev_mail").select("text").where("recipient", "=", number).orderBy("created_at", "desc").execute()).filter(({ text }) => text.includes("驗證碼是"));
    const before = (await codes()).length;
    expect((await client.post("/phone-number/send-otp", { phoneNumber: number })).status).toBe(200);
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const texts = await codes();
      if (texts.length > before) return /(\d{6})/.exec(texts[0]!.text)?.[1] ?? "";
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no text to ${number}`);
  }

  async function expectEverythingBeforeTheProofEnded(email: string, attacker: AuthTestClient, userId: string, ownerSessionCount: number) {
    expect(await attacker.me()).toBeNull();
    const retry = await server.client().post("/sign-in/email", { email, password: attackerPassword });
    expect(retry.status).toBe(401);
    const accounts = await db().selectFrom("account").select(["providerId", "password"]).where("userId", "=", userId).execute();
    expect(accounts.filter((account) => account.providerId === "credential" || account.password)).toEqual([]);
    const sessions = await db().selectFrom("session").select("id").where("userId", "=", userId).execute();
    expect(sessions).toHaveLength(ownerSessionCount);
    const user = await db().selectFrom("user").select(["emailVerified", "name"]).where("id", "=", userId).executeTakeFirstOrThrow();
    expect(Boolean(user.emailVerified)).toBe(true);
    const notice = await server.latestMail(email, noticeSubject);
    expect(notice.text).toContain("確認之前設定的密碼");
  }

  it("an emailed sign-in link ends the attacker's password, sessions and app sign-ins", async () => {
    const email = newEmail();
    const { attacker, userId } = await claimInAdvance(email);

    const owner = server.client();
    expect((await owner.post("/email-link/request", { email })).status).toBe(200);
    const mail = await server.latestMail(email, /你的登入連結/);
    const link = mail.links.find((candidate) => candidate.includes("/login/email-link")) ?? "";
    const signedIn = await owner.post("/email-link/sign-in", { token: new URL(link).searchParams.get("token") });
    expect(signedIn.status).toBe(200);
    expect((await owner.me())?.uid).toBe(userId);

    await expectEverythingBeforeTheProofEnded(email, attacker, userId, 1);
  });

  it("a social provider vouching for the address ends them too, and keeps the provider it came by", async () => {
    const email = newEmail();
    const { attacker, userId } = await claimInAdvance(email);

    const owner = server.client();
    expect(await signInWithDevProvider(server, owner, email)).toBe("/account");
    expect((await owner.me())?.uid).toBe(userId);

    await expectEverythingBeforeTheProofEnded(email, attacker, userId, 1);
    const kept = await db().selectFrom("account").select("providerId").where("userId", "=", userId).execute();
    expect(kept.map((account) => account.providerId)).toEqual(["dev"]);
  });

  it("removes the attacker's two-step sign-in, so the owner's social sign-in asks for no code of theirs", async () => {
    const email = newEmail();
    const { attacker, userId } = await claimInAdvance(email);
    const enabled = await attacker.post<{ totpURI: string }>("/two-factor/enable", { password: attackerPassword });
    expect(enabled.status).toBe(200);
    expect((await attacker.post("/two-factor/verify-totp", { code: await authenticatorApp(enabled.body.totpURI)() })).status).toBe(200);

    const owner = server.client();
    expect(await signInWithDevProvider(server, owner, email)).toBe("/account");
    expect((await owner.me())?.uid).toBe(userId);
    const twoStep = await db().selectFrom("user").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
    expect(Boolean((twoStep as { twoFactorEnabled?: unknown }).twoFactorEnabled)).toBe(false);
  });

  it("removes a phone number the attacker attached before the proof: a texted code no longer signs in to the account", async () => {
    const email = newEmail();
    const { attacker, userId } = await claimInAdvance(email);
    const number = `+8869${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    expect((await attacker.post("/phone-number/verify", { phoneNumber: number, code: await textedCode(attacker, number), updatePhoneNumber: true })).status).toBe(200);
    const attached = await db().selectFrom("user").select(["phoneNumber", "phoneNumberVerified"]).where("id", "=", userId).executeTakeFirstOrThrow();
    expect(attached.phoneNumber).toBe(number);

    const owner = server.client();
    expect(await signInWithDevProvider(server, owner, email)).toBe("/account");
    expect((await owner.me())?.uid).toBe(userId);

    const proved = await db().selectFrom("user").select(["phoneNumber", "phoneNumberVerified"]).where("id", "=", userId).executeTakeFirstOrThrow();
    expect(proved.phoneNumber).toBeNull();
    expect(Boolean(proved.phoneNumberVerified)).toBe(false);
    await server.service.rateLimitStore.reset(`sms-wait:${number}`);
    const byText = server.client();
    expect((await byText.post("/phone-number/verify", { phoneNumber: number, code: await textedCode(byText, number) })).status).toBe(200);
    expect((await byText.me())?.uid).not.toBe(userId);
  });

  it("leaves a verified account alone: its password and other devices keep working after an emailed link", async () => {
    const email = newEmail();
    const first = server.client();
    expect((await first.post("/sign-up/email", { email, password: attackerPassword, name: "林爸爸" })).status).toBe(200);
    const verification = await server.latestMail(email, /驗證/);
    const verifyLink = verification.links.find((candidate) => candidate.includes("/verify-email")) ?? "";
    expect((await server.client().get(`/verify-email?token=${encodeURIComponent(new URL(verifyLink).searchParams.get("token") ?? "")}`)).status).toBe(200);
    // Verified by the sign-up's own link: the sign-up's password is the owner's.
    expect((await server.client().post("/sign-in/email", { email, password: attackerPassword })).status).toBe(200);

    const owner = server.client();
    await owner.post("/email-link/request", { email });
    const mail = await server.latestMail(email, /你的登入連結/);
    const link = mail.links.find((candidate) => candidate.includes("/login/email-link")) ?? "";
    expect((await owner.post("/email-link/sign-in", { token: new URL(link).searchParams.get("token") })).status).toBe(200);
    expect(await first.me()).not.toBeNull();
    expect((await server.client().post("/sign-in/email", { email, password: attackerPassword })).status).toBe(200);
    const notices = await db().selectFrom("dev_mail").select("subject").where("recipient", "=", email).execute();
    expect(notices.filter((mailed) => noticeSubject.test(mailed.subject))).toEqual([]);
  });
});
