import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";

const password = "kite-river-7";
const newEmail = (local = `abuse-${randomUUID().slice(0, 8)}`) => `${local}@example.tw`;

/**
 * The sign-in layer as an attacker uses it: names that speak with the site's voice, photos that point elsewhere,
 * passwords built on context words (ASVS 6.2.11), redirect edges, and guest upgrades raced against each other.
 */
describeEachDatabase("sign-in layer under abuse", (database) => {
  let server: AuthTestServer;
  const db = () => database().handle.db;

  beforeAll(async () => {
    server = await startAuthServer(database(), {
      RATE_LIMIT_SIGN_UP_PER_IP: "1000/60",
      RATE_LIMIT_GUEST_PER_IP: "1000/60",
      RATE_LIMIT_AUTH_PER_IP: "100000/60",
    });
  });
  afterAll(async () => {
    await server.close();
  });

  async function signedUp(client: AuthTestClient, name = "小明") {
    const email = newEmail();
    expect((await client.post("/sign-up/email", { email, password, name })).status).toBe(200);
    return email;
  }

  const hostileNames = [
    "小明\u0000",
    "叮\u0007咚",
    "\u202Egpj.exe",
    "a\u2066b\u2069",
    "看不見\u200B的字",
    "您的帳號已被停用，請至 https://evil.example/restore 重新啟用",
    "請至 www.evil.example 重新啟用",
    "客服 evil-support.com",
    "全形網址 ｅｖｉｌ．ｃｏｍ",
    // Full stops of other scripts, read as dots.
    "evil。example",
    "客服 evil｡com",
    "客服 evil．tw",
    "客服 evil﹒com",
    "客服 evil․com",
  ];

  it("refuses names with hidden characters or links on sign-up, guest upgrade and update, storing nothing", async () => {
    const client = server.client();
    await signedUp(client, "原本的名字");
    const guest = server.client();
    await guest.post("/sign-in/anonymous");
    for (const name of hostileNames) {
      const email = newEmail();
      const refused = await server.client().post("/sign-up/email", { email, password, name });
      expect(refused, name).toMatchObject({ status: 400, body: { code: "auth/invalid-display-name" } });
      expect(await db().selectFrom("user").select("id").where("email", "=", email).executeTakeFirst()).toBeUndefined();
      expect(await guest.post("/guest/upgrade", { email, password, name }), name).toMatchObject({ status: 400, body: { code: "auth/invalid-display-name" } });
      expect(await client.post("/update-user", { name }), name).toMatchObject({ status: 400, body: { code: "auth/invalid-display-name" } });
    }
    expect(await client.me()).toMatchObject({ displayName: "原本的名字" });
    expect(await guest.me()).toMatchObject({ isAnonymous: true });
  });

  it.each(["Mei.Chen", "陳媽媽 👩‍👧", "J. R. Wang", "小明 & 小華"])("keeps the ordinary name %j", async (name) => {
    const client = server.client();
    await signedUp(client, name);
    expect(await client.me()).toMatchObject({ displayName: name });
  });

  it("never lets the name lead (or appear in) a mail from the site", async () => {
    const name = "王小明";
    const email = await signedUp(server.client(), name);
    const mail = await server.latestMail(email, /驗證/);
    expect(mail.text.startsWith("你好")).toBe(true);
    expect(mail.text).not.toContain(name);
    expect(mail.html).not.toContain(name);
  });

  it("takes only a photo of the site's own storage, bounded, or none", async () => {
    const client = server.client();
    await signedUp(client);
    const own = `${server.baseURL}/v0/b/default/o/users%2Fx%2Favatar?alt=media&token=abc`;
    for (const image of ["javascript:alert(1)", "https://evil.example/a.png", `${server.baseURL}/../evil`, "x".repeat(60_000), `${own}${"a".repeat(2_000)}`, 42]) {
      expect(await client.post("/update-user", { image }), String(image).slice(0, 40)).toMatchObject({ status: 400, body: { code: "auth/invalid-photo-url" } });
    }
    expect((await client.post("/update-user", { image: own })).status).toBe(200);
    expect(await client.me()).toMatchObject({ photoURL: own });
    expect((await client.post("/update-user", { image: null })).status).toBe(200);
    expect(await client.me()).toMatchObject({ photoURL: null });
  });

  it("refuses passwords built on the product's, the site's or the user's own words", async () => {
    // In leet, reordered, or both.
    for (const weak of ["taskhero123", "TaskHero2024!", "taiwan2024", "任務小勇士2024", "t4skh3r02024", "herotask2024", "H3r0T4sk!2024", "t@iw@n2024"]) {
      const refused = await server.client().post("/sign-up/email", { email: newEmail(), password: weak, name: "小明" });
      expect(refused, weak).toMatchObject({ status: 400, body: { code: "auth/weak-password" } });
      expect(String(refused.body.message), weak).toContain("taskhero123");
    }
    const own = await server.client().post("/sign-up/email", { email: newEmail("mei.chen"), password: "meichen2024", name: "小美" });
    expect(own).toMatchObject({ status: 400, body: { code: "auth/weak-password" } });
    const named = await server.client().post("/sign-up/email", { email: newEmail(), password: "xiaomei2024", name: "Xiao Mei" });
    expect(named).toMatchObject({ status: 400, body: { code: "auth/weak-password" } });
    expect((await server.client().post("/sign-up/email", { email: newEmail(), password: "taiwan-kite-river-7", name: "小明" })).status).toBe(200);

    // A new password for a signed-in account, and one set through a reset link, meet the same rule.
    const client = server.client();
    const local = `mei${randomUUID().slice(0, 6)}`;
    const email = newEmail(local);
    expect((await client.post("/sign-up/email", { email, password, name: "小美" })).status).toBe(200);
    const changed = await client.post("/change-password", { currentPassword: password, newPassword: `${local}99` });
    expect(changed).toMatchObject({ status: 400, body: { code: "auth/weak-password" } });
    expect((await server.client().post("/request-password-reset", { email, redirectTo: "/reset-password" })).status).toBe(200);
    const link = (await server.latestMail(email, /重設/)).links.find((candidate) => candidate.includes("/reset-password")) ?? "";
    const token = new URL(link).searchParams.get("token") ?? "";
    expect(await server.client().post("/reset-password", { token, newPassword: `${local}!2024` })).toMatchObject({ status: 400, body: { code: "auth/weak-password" } });
    expect((await server.client().post("/reset-password", { token, newPassword: "brand-new-river-1" })).status).toBe(200);
  });

  it.each(["/%09/evil.example", "/%2F%2Fevil.example", "/%5C%5Cevil.example", "/\t/evil.example"])("refuses the callback %j (it decodes to another host)", async (callbackURL) => {
    const answer = await server.client().post("/sign-up/email", { email: newEmail(), password, name: "小明", callbackURL });
    expect(answer).toMatchObject({ status: 403, body: { code: "auth/unauthorized-continue-uri" } });
    const signIn = await server.client().post("/sign-in/email", { email: newEmail(), password, callbackURL });
    expect(signIn).toMatchObject({ status: 403, body: { code: "auth/unauthorized-continue-uri" } });
  });

  it("lets one guest upgrade only once when it asks twice at once: one credential, one address, one mail", async () => {
    for (let round = 0; round < 3; round += 1) {
      const guest = server.client();
      await guest.post("/sign-in/anonymous");
      const uid = (await guest.me())?.uid ?? "";
      const emails = [newEmail(), newEmail()];
      // Both requests carry the guest's session (the cookie jar is read before either answers).
      const answers = await Promise.all(emails.map((email) => guest.post("/guest/upgrade", { email, password, name: "小華" })));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      // The other is refused one of two ways, by when it read the guest's session: before the upgrade ended it (no
      // longer a guest, 400), or after (the session ended with the upgrade, as any ended session's cookie: 401). On a
      // loaded machine the second request may be read only after the first's hash and transaction.
      const refused = answers.find((answer) => answer.status !== 200)!;
      expect([
        [400, "auth/not-anonymous"],
        [401, "auth/no-current-user"],
      ]).toContainEqual([refused.status, (refused.body as { code?: string }).code]);
      const credentials = await db().selectFrom("account").select("id").where("userId", "=", uid).where("providerId", "=", "credential").execute();
      expect(credentials).toHaveLength(1);
      const winner = emails[answers.findIndex((answer) => answer.status === 200)] ?? "";
      expect((await db().selectFrom("user").select("email").where("id", "=", uid).executeTakeFirst())?.email).toBe(winner);
    }
  });

  it("gives one address to one of two guests racing for it; the other gets email-already-in-use, never 500", async () => {
    for (let round = 0; round < 3; round += 1) {
      const guests = [server.client(), server.client()];
      await Promise.all(guests.map((guest) => guest.post("/sign-in/anonymous")));
      const email = newEmail();
      const answers = await Promise.all(guests.map((guest) => guest.post("/guest/upgrade", { email, password, name: "小華" })));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
      expect(answers.find((answer) => answer.status === 422)?.body).toMatchObject({ code: "auth/email-already-in-use" });
      const owners = await db().selectFrom("user").select("id").where("email", "=", email).execute();
      expect(owners).toHaveLength(1);
      const loser = guests[answers.findIndex((answer) => answer.status === 422)];
      expect(await loser?.me()).toMatchObject({ isAnonymous: true });
    }
  });
});
