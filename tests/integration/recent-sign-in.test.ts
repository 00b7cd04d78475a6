import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RECENT_SIGN_IN_SECONDS } from "~/features/auth/recent-sign-in.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";

const password = "lantern-harbour-9";

// Recent sign-in (the original's requires-recent-login): one guard on every sensitive change, one confirm step.
describeEachDatabase("recent sign-in", (database) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(database(), { RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT: "3/900" });
  });
  afterAll(async () => {
    await server.close();
  });

  async function signedIn(): Promise<{ email: string; client: AuthTestClient }> {
    const email = `recent-${randomUUID().slice(0, 8)}@example.tw`;
    const client = server.client();
    expect((await client.post("/sign-up/email", { email, password, name: "小明" })).status).toBe(200);
    const mail = await server.latestMail(email, /驗證/);
    const token = new URL(mail.links.find((link) => link.includes("/verify-email")) ?? "").searchParams.get("token") ?? "";
    expect((await server.client().get(`/verify-email?token=${encodeURIComponent(token)}`)).status).toBe(200);
    return { email, client };
  }

  /** Moves every session of the account back in time, as if signed in `seconds` ago. */
  async function age(email: string, seconds: number) {
    const { db } = server.service.database;
    const user = await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const then = new Date(Date.now() - seconds * 1000);
    await db
      .updateTable("session")
      .set({ createdAt: server.service.database.dialect === "postgres" ? then : (then.toISOString() as unknown as Date) })
      .where("userId", "=", user.id)
      .execute();
  }

  it("lets a fresh session change the email, and refuses an old one with the catalogue's message", async () => {
    const { email, client } = await signedIn();
    expect((await client.post("/change-email", { newEmail: `fresh-${email}` })).status).toBe(200);

    await age(email, RECENT_SIGN_IN_SECONDS + 5);
    const refused = await client.post("/change-email", { newEmail: `later-${email}` });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: "auth/requires-recent-login", message: "此操作需要重新登入" });
    // Every sensitive path is behind the same guard.
    expect((await client.post("/link-social", { provider: "google" })).body).toMatchObject({ code: "auth/requires-recent-login" });
  });

  it("takes the account's password as the confirmation, renews the session and then allows the change", async () => {
    const { email, client } = await signedIn();
    await age(email, RECENT_SIGN_IN_SECONDS + 5);
    const before = [...client.cookies.values()].join();

    const wrong = await client.post("/confirm-identity", { password: "not-the-password" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: "auth/invalid-credential" });
    expect((await client.post("/change-email", { newEmail: `x-${email}` })).status).toBe(403);

    expect((await client.post("/confirm-identity", { password })).status).toBe(200);
    expect([...client.cookies.values()].join()).not.toBe(before);
    expect((await client.me())?.email).toBe(email);
    expect((await client.post("/change-email", { newEmail: `y-${email}` })).status).toBe(200);
  });

  it("counts wrong confirmations toward the account's sign-in lockout", async () => {
    const { email, client } = await signedIn();
    await age(email, RECENT_SIGN_IN_SECONDS + 5);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await client.post("/confirm-identity", { password: "guess-guess-1" })).status).toBe(401);
    }
    const locked = await client.post("/confirm-identity", { password });
    expect(locked.status).toBe(429);
    expect((await server.client().post("/sign-in/email", { email, password })).status).toBe(429);
  });

  it("accepts the current password of a password change as the confirmation, and mails a notice", async () => {
    const { email, client } = await signedIn();
    await age(email, RECENT_SIGN_IN_SECONDS + 5);
    const changed = await client.post("/change-password", { currentPassword: password, newPassword: "harbour-lantern-10" });
    expect(changed.status).toBe(200);
    const notice = await server.latestMail(email, /安全通知/);
    expect(notice.subject).toBe("【任務小勇士】安全通知：密碼已更改");
    expect(notice.text).toContain("你的帳號密碼剛剛更改了");
    expect(notice.links).toContain(`${server.baseURL}/account/security`);
  });
});
