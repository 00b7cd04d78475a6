import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { AccountData, SignInMethods } from "~/features/auth";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestServer } from "./auth-server";
import { verifiedAccount } from "./factories";

const password = "lantern-harbour-9";
const newEmail = () => `center-${randomUUID().slice(0, 8)}@example.tw`;
const tokenOf = (link: string | undefined) => new URL(link ?? "").searchParams.get("token") ?? "";

// The account center's server side: email change, sign-in methods (the last-method rule), a first password, the copy of one's data.
describeEachDatabase("account center", (database) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(database());
  });
  afterAll(async () => {
    await server.close();
  });

  const signedIn = () => verifiedAccount(server, { prefix: "center", password });

  it("uses a new address only once its link is opened, tells the old address, and keeps the session", async () => {
    const { email, client } = await signedIn();
    const next = newEmail();
    expect((await client.post("/change-email", { newEmail: next, callbackURL: "/account" })).status).toBe(200);
    expect((await client.me())?.email).toBe(email);
    const mail = await server.latestMail(next, /請確認你的新電子郵件/);
    const token = tokenOf(mail.links.find((link) => link.includes("/verify-email")));
    const opened = await client.get(`/verify-email?token=${encodeURIComponent(token)}`);
    expect(opened.status).toBe(200);
    expect((await client.me())?.email).toBe(next);
    const notice = await server.latestMail(email, /安全通知/);
    expect(notice.subject).toBe("【任務小勇士】安全通知：電子郵件已更改");
    expect(notice.text).toContain(next);
    // Used once.
    expect((await client.get(`/verify-email?token=${encodeURIComponent(token)}`)).status).toBe(401);
  });

  it("answers a taken address exactly like a free one, and changes nothing", async () => {
    const { email: taken } = await signedIn();
    const { email, client } = await signedIn();
    const answer = await client.post("/change-email", { newEmail: taken });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: true });
    expect((await client.me())?.email).toBe(email);
  });

  it("keeps only the newest email-change link: X then Y leaves X's link dead", async () => {
    const { email, client } = await signedIn();
    const [first, second] = [newEmail(), newEmail()];
    expect((await client.post("/change-email", { newEmail: first })).status).toBe(200);
    const firstToken = tokenOf((await server.latestMail(first, /請確認你的新電子郵件/)).links.find((link) => link.includes("/verify-email")));
    expect((await client.post("/change-email", { newEmail: second })).status).toBe(200);
    const secondToken = tokenOf((await server.latestMail(second, /請確認你的新電子郵件/)).links.find((link) => link.includes("/verify-email")));
    const stale = await client.get(`/verify-email?token=${encodeURIComponent(firstToken)}`);
    expect(stale).toMatchObject({ status: 401, body: { code: "auth/invalid-action-code" } });
    expect((await client.me())?.email).toBe(email);
    expect((await client.get(`/verify-email?token=${encodeURIComponent(secondToken)}`)).status).toBe(200);
    expect((await client.me())?.email).toBe(second);
  });

  it("answers a link to an address taken meanwhile, and two accounts racing for one, with email-already-in-use, never 500", async () => {
    const target = newEmail();
    const linksSent = async () =>
      (await server.service.database.db.selectFrom("dev_mail").select("html").where("recipient", "=", target).execute())
        .map((mail) => /verify-email\?token=([^&"\s]+)/.exec(mail.html)?.[1] ?? "")
        .filter(Boolean);
    /** An account asks to move to `target`; its link is the one that was not there before. */
    const requestChange = async () => {
      const before = await linksSent();
      const { client } = await signedIn();
      expect((await client.post("/change-email", { newEmail: target })).status).toBe(200);
      for (let attempt = 0; attempt < 50; attempt += 1) {
        const link = (await linksSent()).find((token) => !before.includes(token));
        if (link) return { client, link };
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error("no email-change link");
    };
    const [a, b, c] = [await requestChange(), await requestChange(), await requestChange()];
    // Two at once, then the third after the address is taken: one success, and clear refusals.
    const raced = await Promise.all([a, b].map(({ client, link }) => client.get(`/verify-email?token=${link}`)));
    expect(raced.map((answer) => answer.status).sort()).toEqual([200, 422]);
    const late = await c.client.get(`/verify-email?token=${c.link}`);
    for (const refused of [...raced.filter((answer) => answer.status !== 200), late]) {
      expect(refused).toMatchObject({ status: 422, body: { code: "auth/email-already-in-use", message: "此電子郵件已被註冊" } });
    }
    const owners = await server.service.database.db.selectFrom("user").select("id").where("email", "=", target).execute();
    expect(owners).toHaveLength(1);
  });

  it("never removes the last sign-in method, even when two removals race", async () => {
    const { email, client } = await signedIn();
    const user = await server.service.database.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    // A second way in (as a linked provider would be), straight into the table.
    await server.service.database.db
      .insertInto("account")
      .values({ id: randomUUID(), accountId: `dev-${randomUUID()}`, providerId: "dev", userId: user.id, password: null, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() })
      .execute();
    const { methods } = (await client.get<SignInMethods>("/sign-in-methods")).body;
    expect(methods.map((method) => method.provider).sort()).toEqual(["dev", "password"]);
    // When each was added, read from the rows Better Auth wrote (the password's) and the one above.
    for (const method of methods) expect(Math.abs(Date.parse(method.linkedAt) - Date.now()), method.provider).toBeLessThan(60_000);

    const answers = await Promise.all(methods.map((method) => client.post("/sign-in-methods/remove", { id: method.id })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.status === 400)?.body).toEqual({
      code: "auth/last-sign-in-method",
      message: "至少要保留一種登入方式，最後一種登入方式無法移除",
    });
    const left = (await client.get<SignInMethods>("/sign-in-methods")).body.methods;
    expect(left).toHaveLength(1);
    expect((await client.post("/sign-in-methods/remove", { id: left[0]!.id })).body).toMatchObject({ code: "auth/last-sign-in-method" });
    // Better Auth's own unlink (which counts outside a transaction) is not reachable.
    expect((await client.post("/unlink-account", { accountId: left[0]!.id })).status).toBe(404);
  });

  /** A passkey row for the account (what a registration stores), straight into the table. */
  async function addPasskeyRow(userId: string, name = "客廳的電腦") {
    const id = randomUUID();
    await server.service.database.db
      .insertInto("passkey")
      .values({ id, user_id: userId, name, credential_id: randomUUID(), public_key: "AQID", counter: 0, transports: "internal", backed_up: 0, created_at: new Date().toISOString(), last_used_at: null })
      .execute();
    return id;
  }

  it("counts passkeys as ways in: a method may go while a passkey stays, the last passkey stays, and the removal is mailed", async () => {
    const { email, client } = await signedIn();
    const { db } = server.service.database;
    const user = await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const passkey = await addPasskeyRow(user.id);
    const { methods, passkeys } = (await client.get<SignInMethods>("/sign-in-methods")).body;
    expect(passkeys).toBe(1);
    expect((await client.post("/sign-in-methods/remove", { id: methods[0]!.id })).status).toBe(200);
    expect((await client.get<SignInMethods>("/sign-in-methods")).body).toMatchObject({ methods: [], passkeys: 1 });

    expect(await client.post("/passkey/delete", { id: passkey })).toMatchObject({
      status: 400,
      body: { code: "auth/last-sign-in-method", message: "至少要保留一種登入方式，最後一種登入方式無法移除" },
    });
    expect(await db.selectFrom("passkey").select("id").where("id", "=", passkey).execute()).toHaveLength(1);
    // Another account's passkey is not found, whatever its id.
    const other = await signedIn();
    expect(await other.client.post("/passkey/delete", { id: passkey })).toMatchObject({ status: 404, body: { code: "auth/passkey-not-found" } });

    const second = await addPasskeyRow(user.id, "我的手機");
    expect(await client.post("/passkey/delete", { id: second })).toMatchObject({ status: 200, body: { status: true, name: "我的手機" } });
    const notice = await server.latestMail(email, /移除了密碼金鑰/);
    expect(notice.subject).toBe("【任務小勇士】安全通知：移除了密碼金鑰");
    expect(notice.text).toContain("「我的手機」");
  });

  it("lets an account with only a passkey and a social sign-in drop the social one, never both, even when two removals race", async () => {
    const { email, client } = await signedIn();
    const { db } = server.service.database;
    const user = await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await db.insertInto("account").values({ id: randomUUID(), accountId: `dev-${randomUUID()}`, providerId: "dev", userId: user.id, password: null, createdAt: now, updatedAt: now }).execute();
    await db.deleteFrom("account").where("userId", "=", user.id).where("providerId", "=", "credential").execute();
    const passkey = await addPasskeyRow(user.id);
    const [social] = (await client.get<SignInMethods>("/sign-in-methods")).body.methods;

    const answers = await Promise.all([client.post("/sign-in-methods/remove", { id: social!.id }), client.post("/passkey/delete", { id: passkey })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.status === 400)?.body).toMatchObject({ code: "auth/last-sign-in-method" });
    const left = (await client.get<SignInMethods>("/sign-in-methods")).body;
    expect(left.methods.length + left.passkeys).toBe(1);
  });

  it("gives a social-only account a first password once, under the password policy", async () => {
    const { email, client } = await signedIn();
    const user = await server.service.database.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    await server.service.database.db.insertInto("account").values({ id: randomUUID(), accountId: `dev-${randomUUID()}`, providerId: "dev", userId: user.id, password: null, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() }).execute();
    expect((await client.post("/set-password", { newPassword: "another-lantern-1" })).body).toMatchObject({ code: "auth/password-already-set" });
    await server.service.database.db.deleteFrom("account").where("userId", "=", user.id).where("providerId", "=", "credential").execute();

    expect((await client.post("/set-password", { newPassword: "123" })).body).toMatchObject({ code: "auth/weak-password" });
    expect((await client.post("/set-password", { newPassword: "another-lantern-1" })).status).toBe(200);
    expect((await server.client().post("/sign-in/email", { email, password: "another-lantern-1" })).status).toBe(200);
    expect((await server.latestMail(email, /安全通知：已設定密碼/)).text).toContain("設定了密碼");
  });

  it("hands the account its own data and nobody else's, without secrets", async () => {
    const { email, client } = await signedIn();
    await signedIn();
    const answer = await client.get<AccountData>("/account-data");
    expect(answer.status).toBe(200);
    expect(answer.body.profile).toMatchObject({ email, displayName: "小明", emailVerified: true });
    expect(answer.body.signInMethods).toEqual([expect.objectContaining({ provider: "password" })]);
    expect(answer.body.sessions).toEqual([expect.objectContaining({ current: true, place: "本機網路" })]);
    expect(JSON.stringify(answer.body)).not.toMatch(/token|\$argon2|"password":/);
    expect((await server.client().get("/account-data")).status).toBe(401);
  });
});
