import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { getMigrations } from "better-auth/db/migration";
import { authOptions } from "~/features/auth/auth.server";
import { registerUserDataHandler } from "~/features/auth/index.server";
import { SELF_TEST_CACHE_MS, runSelfTest } from "~/features/dev-tools/self-test.server";
import { devMailboxApi } from "~/features/dev-tools/dev-mailbox.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";

const password = "kite-river-7";
const newEmail = () => `user-${randomUUID().slice(0, 8)}@example.tw`;
const tokenFrom = (link: string) => new URL(link).searchParams.get("token") ?? "";

// A feature table of the kind other teams add: rows that point at a user. Registered for this file's tests only.
beforeAll(() => registerUserDataHandler({
  name: "test-notes",
  exportUserData: async (db, userId) => (await sql`select id from test_note where user_id = ${userId}`.execute(db)).rows,
  deleteUserData: async (db, userId) => {
    await sql`delete from test_note where user_id = ${userId}`.execute(db);
  },
  moveUserData: async (db, from, to) => {
    await sql`update test_note set user_id = ${to} where user_id = ${from}`.execute(db);
  },
}));

describeEachDatabase("sign-in layer", (database) => {
  let server: AuthTestServer;
  const db = () => database().handle.db;
  const notesOf = async (userId: string) =>
    (await sql<{ id: string }>`select id from test_note where user_id = ${userId}`.execute(db())).rows.length;

  beforeAll(async () => {
    await sql`create table test_note (id text primary key, user_id text not null references "user"(id) on delete cascade)`.execute(db());
    server = await startAuthServer(database());
  });
  afterAll(async () => {
    await server.close();
  });

  async function signUp(client: AuthTestClient, email = newEmail(), name = "小明") {
    const answer = await client.post("/sign-up/email", { email, password, name });
    expect(answer.status).toBe(200);
    return email;
  }

  async function verify(email: string) {
    const mail = await server.latestMail(email, /驗證/);
    const link = mail.links.find((candidate) => candidate.includes("/verify-email"));
    expect(link).toBeDefined();
    const answer = await server.client().get(`/verify-email?token=${encodeURIComponent(tokenFrom(link ?? ""))}`);
    expect(answer.status).toBe(200);
  }

  it("has a schema Better Auth finds complete", async () => {
    const { toBeCreated, toBeAdded } = await getMigrations(authOptions(server.service));
    expect({ toBeCreated, toBeAdded }).toEqual({ toBeCreated: [], toBeAdded: [] });
  });

  it("signs up into a session as a registered unverified user and mails our verification link", async () => {
    const client = server.client();
    const email = await signUp(client);
    const user = await client.me();
    expect(user).toMatchObject({ email, displayName: "小明", emailVerified: false, isAnonymous: false, phoneNumber: null, tenantId: null });
    expect(user?.providerData).toEqual([{ providerId: "password", uid: email }]);
    expect(Date.parse(user?.metadata.creationTime ?? "")).not.toBeNaN();
    const mail = await server.latestMail(email);
    expect(mail.subject).toContain("任務小勇士");
    expect(mail.html).toContain("<a href=");
    const link = new URL(mail.links[0] ?? "");
    expect(`${link.origin}${link.pathname}`).toBe(`${server.baseURL}/verify-email`);
    expect(link.searchParams.get("email")).toBe(email);
  });

  it("keeps the unverified user's session while refusing their password sign-in until verified", async () => {
    const client = server.client();
    const email = await signUp(client);
    const other = server.client();
    const refused = await other.post("/sign-in/email", { email, password });
    expect(refused).toMatchObject({ status: 403, body: { code: "email-not-verified", message: "電子郵件尚未驗證，請先完成驗證" } });
    expect(await other.me()).toBeNull();
    expect((await client.me())?.email).toBe(email);

    await verify(email);
    expect((await client.me())?.emailVerified).toBe(true);
    const accepted = await other.post("/sign-in/email", { email, password });
    expect(accepted.status).toBe(200);
    expect(await other.me()).toMatchObject({ email, emailVerified: true });
  });

  it("answers one message for an unknown email and a wrong password", async () => {
    const email = await signUp(server.client());
    await verify(email);
    const wrong = await server.client().post("/sign-in/email", { email, password: "wrong-password" });
    const unknown = await server.client().post("/sign-in/email", { email: newEmail(), password });
    expect(wrong).toMatchObject({ status: 401, body: { code: "auth/invalid-credential" } });
    expect(unknown.body).toEqual(wrong.body);
  });

  it("answers email-already-in-use for a taken email, and catalogue errors for bad input", async () => {
    const email = await signUp(server.client());
    const taken = await server.client().post("/sign-up/email", { email, password, name: "x" });
    expect(taken).toMatchObject({ status: 422, body: { code: "auth/email-already-in-use", message: "此電子郵件已被註冊" } });
    const badEmail = await server.client().post("/sign-up/email", { email: "not-an-email", password, name: "x" });
    expect(badEmail).toMatchObject({ status: 400, body: { code: "auth/invalid-email", message: "電子郵件格式不正確" } });
    const weak = await server.client().post("/sign-up/email", { email: newEmail(), password: "12345", name: "x" });
    expect(weak).toMatchObject({ status: 400, body: { code: "auth/weak-password" } });
    const malformed = await server.client().post("/sign-up/email", "{not json");
    expect(malformed).toMatchObject({ status: 400, body: { code: "auth/invalid-request", message: "請求格式不正確" } });
    expect(JSON.stringify(malformed.body)).not.toMatch(/at .*\.(m?js|ts)/);
  });

  it("enforces the configured password policy on sign-up", async () => {
    const strict = await startAuthServer(database(), { PASSWORD_MIN_LENGTH: "8", PASSWORD_REQUIRE_DIGIT: "true", PASSWORD_REQUIRE_UPPERCASE: "true" });
    try {
      const weak = await strict.client().post("/sign-up/email", { email: newEmail(), password: "abcdefgh", name: "x" });
      expect(weak).toMatchObject({ status: 400, body: { code: "auth/weak-password" } });
      expect(weak.body.message).toContain("至少一個數字");
      expect(weak.body.message).toContain("至少一個大寫英文字母");
      const strong = await strict.client().post("/sign-up/email", { email: newEmail(), password: "Kiteriver1", name: "x" });
      expect(strong.status).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it("refuses common passwords with a Chinese message, and signs in with the NFD form of an NFC password", async () => {
    for (const common of ["qwerty123", "1qaz2wsx", "aa123456", "password"]) {
      const refused = await server.client().post("/sign-up/email", { email: newEmail(), password: common, name: "x" });
      expect(refused).toMatchObject({ status: 400, body: { code: "auth/weak-password", message: "這個密碼太常見，很容易被猜中，請換一個" } });
    }
    const short = await server.client().post("/sign-up/email", { email: newEmail(), password: "k7-river", name: "x" });
    expect(short.status).toBe(200);
    const tooShort = await server.client().post("/sign-up/email", { email: newEmail(), password: "k7-rive", name: "x" });
    expect(tooShort).toMatchObject({ status: 400, body: { code: "auth/weak-password", message: "密碼強度不足，至少需要 8 個字元" } });

    const email = newEmail();
    const nfc = "Café-crème-7".normalize("NFC");
    expect((await server.client().post("/sign-up/email", { email, password: nfc, name: "x" })).status).toBe(200);
    await verify(email);
    const nfd = nfc.normalize("NFD");
    expect(nfd).not.toBe(nfc);
    expect((await server.client().post("/sign-in/email", { email, password: nfd })).status).toBe(200);
  });

  it("resets a password by email, revokes every session, and answers the same for unknown emails", async () => {
    const client = server.client();
    const email = await signUp(client);
    await verify(email);
    const redirectTo = `${server.baseURL}/reset-password`;
    const known = await server.client().post("/request-password-reset", { email, redirectTo });
    const unknown = await server.client().post("/request-password-reset", { email: newEmail(), redirectTo });
    expect(known.status).toBe(200);
    expect(unknown).toEqual({ ...known, headers: unknown.headers });

    const mail = await server.latestMail(email, /重設/);
    const link = mail.links.find((candidate) => candidate.includes("/reset-password")) ?? "";
    expect(new URL(link).pathname).toBe("/reset-password");
    const reset = await server.client().post("/reset-password", { newPassword: "brand-new-1", token: tokenFrom(link) });
    expect(reset.status).toBe(200);

    expect(await client.me()).toBeNull();
    expect((await server.client().post("/sign-in/email", { email, password })).status).toBe(401);
    expect((await server.client().post("/sign-in/email", { email, password: "brand-new-1" })).status).toBe(200);
    const reused = await server.client().post("/reset-password", { newPassword: "another-1", token: tokenFrom(link) });
    expect(reused).toMatchObject({ status: 400, body: { code: "auth/invalid-action-code" } });
  });

  it("refuses a foreign callback URL and a foreign Origin", async () => {
    const email = await signUp(server.client());
    const foreign = await server.client().post("/request-password-reset", { email, redirectTo: "https://evil.example/steal" });
    expect(foreign).toMatchObject({ status: 403, body: { code: "auth/unauthorized-continue-uri" } });
    const signIn = await server.client().post("/sign-in/email", { email, password, callbackURL: "https://evil.example/" });
    expect(signIn).toMatchObject({ status: 403, body: { code: "auth/unauthorized-continue-uri" } });
    // Values that Better Auth's own check lets through but that a browser resolves to another host.
    for (const hostile of ["/.//evil.example", "/%2e%2e//evil.example", "/\t/evil.example", "/\\evil.example"]) {
      const reset = await server.client().post("/request-password-reset", { email, redirectTo: hostile });
      expect(reset).toMatchObject({ status: 403, body: { code: "auth/unauthorized-continue-uri" } });
      const social = await server.client().post("/sign-in/social", { provider: "dev", callbackURL: "/", errorCallbackURL: hostile });
      expect(social).toMatchObject({ status: 403, body: { code: "auth/unauthorized-continue-uri" } });
      const verify = await server.client().get(`/verify-email?token=x&callbackURL=${encodeURIComponent(hostile)}`);
      expect(verify).toMatchObject({ status: 403, body: { code: "auth/unauthorized-continue-uri" } });
    }
    const client = server.client();
    await signUp(client);
    const fromElsewhere = server.client({ origin: "https://evil.example" });
    for (const [name, value] of client.cookies) fromElsewhere.cookies.set(name, value);
    const answer = await fromElsewhere.post("/update-user", { name: "被竄改" });
    expect(answer).toMatchObject({ status: 403, body: { code: "auth/unauthorized-domain" } });
  });

  it("caps the display name at 100 characters on sign-up and on update", async () => {
    const tooLong = "勇".repeat(101);
    const email = newEmail();
    const refused = await server.client().post("/sign-up/email", { email, password, name: tooLong });
    expect(refused).toMatchObject({ status: 400, body: { code: "auth/display-name-too-long", message: "顯示名稱不可超過 100 個字元" } });
    expect(await db().selectFrom("user").select("id").where("email", "=", email).executeTakeFirst()).toBeUndefined();

    const client = server.client();
    await signUp(client, newEmail(), "勇".repeat(100));
    expect(await client.me()).toMatchObject({ displayName: "勇".repeat(100) });
    const update = await client.post("/update-user", { name: tooLong });
    expect(update).toMatchObject({ status: 400, body: { code: "auth/display-name-too-long", message: "顯示名稱不可超過 100 個字元" } });
    expect(await client.me()).toMatchObject({ displayName: "勇".repeat(100) });
    const renamed = await client.post("/update-user", { name: "小勇" });
    expect(renamed.status).toBe(200);
    expect(await client.me()).toMatchObject({ displayName: "小勇" });
  });

  it("resends the verification email for the signed-in user only", async () => {
    const client = server.client();
    const email = await signUp(client);
    const resent = await client.post("/send-verification-email", { email });
    expect(resent.status).toBe(200);
    const mismatch = await client.post("/send-verification-email", { email: newEmail() });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.code).toBe("auth/operation-not-allowed");
  });

  it("signs a guest in as 訪客 without an email", async () => {
    const client = server.client();
    expect((await client.post("/sign-in/anonymous")).status).toBe(200);
    expect(await client.me()).toMatchObject({ displayName: "訪客", email: null, isAnonymous: true, emailVerified: false });
  });

  it("upgrades a guest in place: same id, rows kept, session rotated, verification mailed", async () => {
    const client = server.client();
    await client.post("/sign-in/anonymous");
    const guest = await client.me();
    const guestId = guest?.uid ?? "";
    await sql`insert into test_note (id, user_id) values (${randomUUID()}, ${guestId})`.execute(db());
    const oldCookie = [...client.cookies.values()].join();

    const email = newEmail();
    const upgraded = await client.post("/guest/upgrade", { email, password, name: "小華" });
    expect(upgraded.status).toBe(200);
    expect([...client.cookies.values()].join()).not.toBe(oldCookie);
    expect(await client.me()).toMatchObject({ uid: guestId, email, displayName: "小華", isAnonymous: false, emailVerified: false });
    expect(await notesOf(guestId)).toBe(1);
    await verify(email);
    expect((await server.client().post("/sign-in/email", { email, password })).status).toBe(200);

    const again = await client.post("/guest/upgrade", { email: newEmail(), password, name: "x" });
    expect(again).toMatchObject({ status: 400, body: { code: "auth/not-anonymous", message: "目前的帳號不是訪客帳號" } });
  });

  it("refuses an upgrade to a taken email, and moves the guest's rows when the guest signs in to that account", async () => {
    const owner = server.client();
    const email = await signUp(owner);
    await verify(email);
    const ownerId = (await owner.me())?.uid ?? "";

    const guest = server.client();
    await guest.post("/sign-in/anonymous");
    const guestId = (await guest.me())?.uid ?? "";
    await sql`insert into test_note (id, user_id) values (${randomUUID()}, ${guestId})`.execute(db());
    const taken = await guest.post("/guest/upgrade", { email, password, name: "x" });
    expect(taken).toMatchObject({ status: 422, body: { code: "auth/email-already-in-use" } });

    expect((await guest.post("/sign-in/email", { email, password })).status).toBe(200);
    expect((await guest.me())?.uid).toBe(ownerId);
    expect(await notesOf(ownerId)).toBe(1);
    const leftover = await db().selectFrom("user").select("id").where("id", "=", guestId).execute();
    expect(leftover).toEqual([]);
  });

  it("keeps the guest and their rows when the guest's sign-in to an unverified account is refused", async () => {
    const email = await signUp(server.client());
    const guest = server.client();
    await guest.post("/sign-in/anonymous");
    const guestId = (await guest.me())?.uid ?? "";
    await sql`insert into test_note (id, user_id) values (${randomUUID()}, ${guestId})`.execute(db());

    const refused = await guest.post("/sign-in/email", { email, password });
    expect(refused.body.code).toBe("email-not-verified");
    expect(refused.headers.getSetCookie()).toEqual([]);
    expect(await guest.me()).toMatchObject({ uid: guestId, isAnonymous: true });
    expect(await notesOf(guestId)).toBe(1);
  });

  it("deletes an account with its password: rows, sessions and accounts go, sign-in fails afterwards", async () => {
    const client = server.client();
    const email = await signUp(client);
    await verify(email);
    const second = server.client();
    await second.post("/sign-in/email", { email, password });
    const userId = (await client.me())?.uid ?? "";
    await sql`insert into test_note (id, user_id) values (${randomUUID()}, ${userId})`.execute(db());

    const withoutPassword = await client.post("/delete-user", {});
    expect(withoutPassword).toMatchObject({ status: 400, body: { code: "auth/missing-password" } });
    const wrongPassword = await client.post("/delete-user", { password: "not-it-1" });
    expect(wrongPassword).toMatchObject({ status: 400, body: { code: "auth/invalid-credential" } });
    expect((await client.post("/delete-user", { password })).status).toBe(200);

    expect(await client.me()).toBeNull();
    expect(await second.me()).toBeNull();
    expect(await notesOf(userId)).toBe(0);
    const sessions = await db().selectFrom("session").select("id").where("userId", "=", userId).execute();
    const accounts = await db().selectFrom("account").select("id").where("userId", "=", userId).execute();
    expect({ sessions, accounts }).toEqual({ sessions: [], accounts: [] });
    expect((await server.client().post("/sign-in/email", { email, password })).body.code).toBe("auth/invalid-credential");
    // The confirmation the app stores ask for, pointing at the page that says what went.
    const confirmation = await server.latestMail(email, /你的帳號已刪除/);
    expect(confirmation.text).toContain("立即生效");
    expect(confirmation.links).toContain(`${server.baseURL}/account-deletion`);
  });

  it("deletes a guest without a password", async () => {
    const client = server.client();
    await client.post("/sign-in/anonymous");
    expect((await client.post("/delete-user", {})).status).toBe(200);
    expect(await client.me()).toBeNull();
  });

  it("stores passwords as argon2id at 19 MiB, t=2, p=1", async () => {
    const client = server.client();
    await signUp(client);
    const userId = (await client.me())?.uid ?? "";
    const account = await db().selectFrom("account").select("password").where("userId", "=", userId).executeTakeFirstOrThrow();
    expect(account.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it("runs the self-test's mail probe once for concurrent loads and reuses the answer for a minute", async () => {
    const check = vi.spyOn(server.service.mail, "check");
    let clock = 1_000_000;
    const now = () => clock;
    try {
      const reports = await Promise.all([runSelfTest(server.service, now), runSelfTest(server.service, now), runSelfTest(server.service, now)]);
      expect(check).toHaveBeenCalledTimes(1);
      expect(reports[0]).toMatchObject({ authApi: true, database: { ok: true }, mail: { ok: true, kind: "mailbox" } });
      expect(reports[1]).toBe(reports[0]);
      clock += SELF_TEST_CACHE_MS - 1;
      expect(await runSelfTest(server.service, now)).toBe(reports[0]);
      expect(check).toHaveBeenCalledTimes(1);
      clock += 1;
      expect(await runSelfTest(server.service, now)).toEqual(reports[0]);
      expect(check).toHaveBeenCalledTimes(2);
    } finally {
      check.mockRestore();
    }
  });

  it("answers the self-test probes: the mailbox JSON API exists on a loopback site without SMTP", async () => {
    const answer = await devMailboxApi(new Request(`${server.baseURL}/api/dev/mailbox?to=nobody@example.tw`), server.service);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual([]);
  });
});
