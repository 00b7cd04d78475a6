import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";

const password = "kite-river-7";
const newEmail = () => `session-${randomUUID().slice(0, 8)}@example.tw`;
const day = 24 * 3600 * 1000;

// Sessions, tokens and links (ASVS V7 and 6.4): what the server does with the cookie it hands out.
describeEachDatabase("sessions and links", (database) => {
  let server: AuthTestServer;
  const db = () => database().handle.db;
  // SQLite keeps Better Auth's dates as ISO text, PostgreSQL as timestamps.
  const stored = (date: Date) => (database().handle.dialect === "sqlite" ? date.toISOString() : date);

  beforeAll(async () => {
    server = await startAuthServer(database());
  });
  afterAll(async () => {
    await server.close();
  });

  async function verifiedUser(client: AuthTestClient) {
    const email = newEmail();
    expect((await client.post("/sign-up/email", { email, password, name: "小明" })).status).toBe(200);
    const mail = await server.latestMail(email, /驗證/);
    const link = new URL(mail.links.find((candidate) => candidate.includes("/verify-email")) ?? "");
    return { email, token: link.searchParams.get("token") ?? "" };
  }
  const sessionToken = (client: AuthTestClient) => {
    const value = [...client.cookies].find(([name]) => name.endsWith("session_token"))?.[1] ?? "";
    return decodeURIComponent(value).split(".")[0] ?? "";
  };
  const sessionRow = (token: string) => db().selectFrom("session").selectAll().where("token", "=", token).executeTakeFirst();

  it("never puts the session token in a JSON answer", async () => {
    const client = server.client();
    const email = newEmail();
    const answers = [await client.post("/sign-up/email", { email, password, name: "小明" })];
    const token = sessionToken(client);
    expect(token).toMatch(/\w{20,}/);
    answers.push(await client.get("/get-session"), await client.get("/list-sessions"), await client.get("/me"));
    const guest = server.client();
    answers.push(await guest.post("/sign-in/anonymous"));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(JSON.stringify(answer.body)).not.toContain(token);
      expect(JSON.stringify(answer.body)).not.toContain(sessionToken(guest));
      expect(JSON.stringify(answer.body)).not.toMatch(/"token":/);
    }
  });

  it("ends the session a sign-in presents", async () => {
    const client = server.client();
    const { email, token } = await verifiedUser(client);
    expect((await server.client().get(`/verify-email?token=${encodeURIComponent(token)}`)).status).toBe(200);
    const before = sessionToken(client);
    expect(await sessionRow(before)).toBeDefined();
    expect((await client.post("/sign-in/email", { email, password })).status).toBe(200);
    expect(sessionToken(client)).not.toBe(before);
    expect(await sessionRow(before)).toBeUndefined();
    expect((await client.me())?.email).toBe(email);
  });

  it("signs in a browser that still carries the signed cookie of a session that has ended, and keeps it signed in", async () => {
    const client = server.client();
    const { email, token } = await verifiedUser(client);
    expect((await server.client().get(`/verify-email?token=${encodeURIComponent(token)}`)).status).toBe(200);
    expect((await client.post("/sign-in/email", { email, password })).status).toBe(200);
    const stale = new Map(client.cookies);
    // Signed out elsewhere (the same as a lock, an operator's sign-out or an expiry): the cookie still has a good signature.
    expect((await server.client().post("/sign-in/email", { email, password })).status).toBe(200);
    await db().deleteFrom("session").where("token", "=", sessionToken(client)).execute();
    for (const [name, value] of stale) client.cookies.set(name, value);

    expect((await client.post("/sign-in/email", { email, password })).status).toBe(200);
    expect(sessionToken(client)).toMatch(/\w{20,}/);
    expect(await sessionRow(sessionToken(client))).toBeDefined();
    expect((await client.me())?.email).toBe(email);
  });

  it("gives a session an idle lifetime of 7 days that slides, but never past 30 days from sign-in", async () => {
    const client = server.client();
    await client.post("/sign-in/anonymous");
    const token = sessionToken(client);
    const created = await sessionRow(token);
    const idle = new Date(created?.expiresAt ?? 0).getTime() - new Date(created?.createdAt ?? 0).getTime();
    expect(Math.abs(idle - 7 * day)).toBeLessThan(60_000);

    // Used again after two quiet days: it slides to 7 days from now, but not past day 30 of its life.
    const setLife = (createdDaysAgo: number, expiresInDays: number) =>
      db()
        .updateTable("session")
        .set({ createdAt: stored(new Date(Date.now() - createdDaysAgo * day)), expiresAt: stored(new Date(Date.now() + expiresInDays * day)) })
        .where("token", "=", token)
        .execute();
    await setLife(2, 5);
    expect(await client.me()).not.toBeNull();
    expect(new Date((await sessionRow(token))?.expiresAt ?? 0).getTime()).toBeGreaterThan(Date.now() + 6.9 * day);

    await setLife(27, 5);
    expect(await client.me()).not.toBeNull();
    const capped = new Date((await sessionRow(token))?.expiresAt ?? 0).getTime();
    expect(capped).toBeLessThanOrEqual(Date.now() - 27 * day + 30 * day + 1000);
    expect(capped).toBeGreaterThan(Date.now() + 2.9 * day);

    await setLife(31, 5);
    expect(await client.me()).toBeNull();
    expect(await client.me()).toBeNull();
  });

  it("refuses on read a session older than the absolute lifetime whatever its expiry says (a row from before the cap)", async () => {
    const client = server.client();
    await client.post("/sign-in/anonymous");
    const token = sessionToken(client);
    // Just used (no sliding due), but signed in 31 days ago: the absolute lifetime of 30 days is over.
    await db()
      .updateTable("session")
      .set({ createdAt: stored(new Date(Date.now() - 31 * day)), expiresAt: stored(new Date(Date.now() + 7 * day - 60_000)) })
      .where("token", "=", token)
      .execute();
    expect(await client.me()).toBeNull();
    expect((await client.get("/get-session")).body).toBeNull();
    expect(await sessionRow(token)).toBeUndefined();
  });

  it("ends a session left unused for longer than the idle limit", async () => {
    const client = server.client();
    await client.post("/sign-in/anonymous");
    await db()
      .updateTable("session")
      .set({ expiresAt: stored(new Date(Date.now() - 1000)) })
      .where("token", "=", sessionToken(client))
      .execute();
    expect(await client.me()).toBeNull();
  });

  it("takes a verification link only once", async () => {
    const { token } = await verifiedUser(server.client());
    const first = await server.client().get(`/verify-email?token=${encodeURIComponent(token)}`);
    expect(first.status).toBe(200);
    const again = await server.client().get(`/verify-email?token=${encodeURIComponent(token)}`);
    expect(again).toMatchObject({ status: 401, body: { code: "auth/invalid-action-code" } });
    const stored = await db().selectFrom("used_link_token").select("token_hash").execute();
    expect(JSON.stringify(stored)).not.toContain(token);
  });
});
