import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseEnv } from "~/config/env.server";
import { createAuthService } from "~/features/auth/index.server";
import { pageSessionReader } from "~/features/auth/session-read.server";
import { openDatabase } from "~/db/connection.server";
import { isDependencyUnavailable } from "~/services/dependency-errors.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";

const day = 24 * 3600 * 1000;
const password = "kite-river-7";

// A page load's session read (app/features/auth/session-read.server.ts) against Better Auth's own getSession:
// the same answer for every cookie and every session, and the request handed to Better Auth whenever a write is due.
describeEachDatabase("a page load's session read", (database) => {
  let server: AuthTestServer;
  let reader: ReturnType<typeof pageSessionReader>["read"];
  let atOnce: ReturnType<typeof pageSessionReader>["readAtOnce"];
  const db = () => database().handle.db;
  const stored = (date: Date) => (database().handle.dialect === "sqlite" ? date.toISOString() : date);
  const verified = () => (database().handle.dialect === "sqlite" ? 1 : true);

  beforeAll(async () => {
    server = await startAuthServer(database());
    const both = pageSessionReader(server.service.auth, database().handle, server.service.env.SESSION_ABSOLUTE_DAYS);
    expect(both.readAtOnce("better-auth.session_token=any")).toBeUndefined();
    reader = both.read;
    atOnce = both.readAtOnce;
  });
  afterAll(async () => {
    await server.close();
  });

  const cookieHeader = (client: AuthTestClient) => [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  const sessionCookie = (client: AuthTestClient) => [...client.cookies].find(([name]) => name.endsWith("session_token"))!;
  const tokenOf = (client: AuthTestClient) => decodeURIComponent(sessionCookie(client)[1]).split(".")[0]!;
  const headers = (cookie: string) => new Headers({ cookie });
  const betterAuth = (cookie: string) => server.service.auth.api.getSession({ headers: headers(cookie) });
  const setLife = (token: string, life: { createdDaysAgo?: number; expiresInDays: number }) =>
    db()
      .updateTable("session")
      .set({
        expiresAt: stored(new Date(Date.now() + life.expiresInDays * day)),
        ...(life.createdDaysAgo === undefined ? {} : { createdAt: stored(new Date(Date.now() - life.createdDaysAgo * day)) }),
      })
      .where("token", "=", token)
      .execute();

  /**
   * Our read answers on its own (no write due) and gives what Better Auth gives for the same cookie; so does the
   * read without a promise on SQLite (on PostgreSQL it leaves every session to the read that waits).
   */
  async function expectSameAnswer(cookie: string) {
    const ours = await reader(headers(cookie));
    expect(ours).not.toBeUndefined();
    expect(ours).toStrictEqual(await betterAuth(cookie));
    const quick = atOnce(cookie);
    if (database().handle.dialect === "sqlite") expect(quick).toStrictEqual(ours);
    // PostgreSQL's needs a round trip for any session: it answers at once only a cookie that names none.
    else expect(quick === undefined || (quick === null && ours === null)).toBe(true);
    return ours;
  }

  async function signedUp(client = server.client()) {
    const email = `page-read-${randomUUID().slice(0, 8)}@example.tw`;
    expect((await client.post("/sign-up/email", { email, password, name: "王小明" })).status).toBe(200);
    return client;
  }

  it("gives a parent's session and user as Better Auth does, every field and type", async () => {
    const client = await signedUp();
    const answer = await expectSameAnswer(cookieHeader(client));
    expect(answer?.user.name).toBe("王小明");
    expect(answer?.session.expiresAt).toBeInstanceOf(Date);
  });

  it("gives a guest's session, and a verified parent's with a photo and a changed name, as Better Auth does", async () => {
    const guest = server.client();
    expect((await guest.post("/sign-in/anonymous")).status).toBe(200);
    expect((await expectSameAnswer(cookieHeader(guest)))?.user.isAnonymous).toBe(true);

    const parent = await signedUp();
    const userId = (await betterAuth(cookieHeader(parent)))!.user.id;
    // Every kind of field set: text, a photo, booleans, a phone number, and one Better Auth never answers (lockedAt).
    const changes = { emailVerified: verified(), image: "https://example.tw/me.png", name: "小明的爸爸", phoneNumber: "+886912345678", twoFactorEnabled: verified(), lockedAt: new Date().toISOString() };
    await db().updateTable("user").set(changes as never).where("id", "=", userId).execute();
    const answer = await expectSameAnswer(cookieHeader(parent));
    expect(answer?.user).toMatchObject({ emailVerified: true, image: "https://example.tw/me.png", name: "小明的爸爸", phoneNumber: "+886912345678", twoFactorEnabled: true });
    expect(answer?.user).not.toHaveProperty("lockedAt");
  });

  it("reads the cookie as Better Auth does: encoded or not, quoted, the first of two, among others", async () => {
    const client = await signedUp();
    const [name, value] = sessionCookie(client);
    const plain = decodeURIComponent(value);
    expect(plain).toMatch(/[+/=]/);
    for (const cookie of [`${name}=${plain}`, `${name}="${value}"`, `theme=dark; ${name}=${value}; _ga=1`, `${name}=${value}; ${name}=tampered.${"A".repeat(43)}=`]) {
      expect((await expectSameAnswer(cookie))?.session.token).toBe(tokenOf(client));
    }
    // The first of two names the session: a bad first one is no session at all, in both.
    await expectSameAnswer(`${name}=tampered.${"A".repeat(43)}=; ${name}=${value}`);
    expect(await reader(headers(`${name}=tampered.${"A".repeat(43)}=; ${name}=${value}`))).toBeNull();
    // A cookie whose signature is not the secret's names no session on either database, with no read.
    expect(atOnce(`${name}=tampered.${"A".repeat(43)}=; ${name}=${value}`)).toBeNull();
  });

  it("reads an https site's __Host- cookie as Better Auth does", async () => {
    const site = createAuthService({
      // An https site on this machine: its cookies are __Host- ones, and it needs no mail server or bot check.
      env: parseEnv({ SITE_URL: "https://localhost:8443", REDIS_URL: "", BOT_CHECK: "off" }),
      database: database().handle,
    });
    try {
      const email = `page-read-${randomUUID().slice(0, 8)}@example.tw`;
      const { headers: answered } = await site.auth.api.signUpEmail({ body: { email, password, name: "王小明" }, headers: new Headers(), returnHeaders: true });
      const cookie = answered.getSetCookie().map((line) => line.split(";")[0]).join("; ");
      expect(cookie).toMatch(/^__Host-task-hero\.session_token=/);
      const ours = await pageSessionReader(site.auth, database().handle, site.env.SESSION_ABSOLUTE_DAYS).read(headers(cookie));
      expect(ours?.user.email).toBe(email);
      expect(ours).toStrictEqual(await site.auth.api.getSession({ headers: headers(cookie) }));
      // The same cookie without its prefix is another cookie: no session, in both.
      const unprefixed = cookie.replace("__Host-", "");
      expect(await pageSessionReader(site.auth, database().handle, 30).read(headers(unprefixed))).toBeNull();
      expect(await site.auth.api.getSession({ headers: headers(unprefixed) })).toBeNull();
    } finally {
      await site.close();
    }
  });

  it("fails, never answers 'signed out', when the database cannot be read (the caller answers 503)", async () => {
    const client = await signedUp();
    // PostgreSQL that refuses connections; an SQLite file whose connection is closed.
    const postgres = database().handle.dialect === "postgres";
    const away = postgres
      ? openDatabase({ databaseUrl: "postgres://127.0.0.1:1/away", dataDir: os.tmpdir(), postgres: { connectMs: 500 } })
      : openDatabase({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "page-read-")) });
    if (!postgres) (away.raw as { close(): void }).close();
    const read = pageSessionReader(server.service.auth, away, 30).read(headers(cookieHeader(client)));
    await expect(read).rejects.toThrow();
    if (postgres) expect(isDependencyUnavailable(await read.catch((error: unknown) => error))).toBe(true);
    await away.db.destroy().catch(() => {});
  });

  it("never sees what another request's open transaction has not committed, and reads again once it ends", async () => {
    const client = await signedUp();
    const userId = (await betterAuth(cookieHeader(client)))!.user.id;
    let rollBack = () => {};
    const held = new Promise<void>((resolve) => (rollBack = resolve));
    let changed = () => {};
    const nameChanged = new Promise<void>((resolve) => (changed = resolve));
    const transaction = db()
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable("user").set({ name: "還沒存下的名字" }).where("id", "=", userId).execute();
        changed();
        await held;
        throw new Error("rolled back on purpose");
      });
    await nameChanged;
    // On SQLite the read shares the one connection the transaction holds open: it must wait for its end, and the
    // read that never waits (the page answered in front of the middleware chain) leaves the request to the chain.
    if (database().handle.dialect === "sqlite") expect(await reader(headers(cookieHeader(client)), { waitless: true })).toBeUndefined();
    expect(atOnce(cookieHeader(client))).toBeUndefined();
    const read = reader(headers(cookieHeader(client)));
    rollBack();
    await expect(transaction).rejects.toThrow("rolled back on purpose");
    // The read that waited (through Kysely on SQLite) gives Better Auth's whole answer, not only the name.
    expect(await read).toStrictEqual(await betterAuth(cookieHeader(client)));
    expect((await read)?.user.name).toBe("王小明");
    expect((await reader(headers(cookieHeader(client))))?.user.name).toBe("王小明");
  });

  it("refuses what Better Auth refuses: a changed token or signature, a short signature, another secret's, none", async () => {
    const client = await signedUp();
    const [name] = sessionCookie(client);
    const [token, signature] = decodeURIComponent(sessionCookie(client)[1]).split(".") as [string, string];
    const flipped = (text: string, at: number) => text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);
    const otherSecret = await startAuthServer(database(), { AUTH_SECRET: "another-secret-of-at-least-32-characters-long" });
    const foreign = await signedUp(otherSecret.client());
    await otherSecret.close();
    const refused = [
      `${name}=${encodeURIComponent(`${flipped(token, 3)}.${signature}`)}`,
      `${name}=${encodeURIComponent(`${token}.${flipped(signature, 5)}`)}`,
      `${name}=${encodeURIComponent(`${token}.${signature.slice(1)}`)}`,
      `${name}=${encodeURIComponent(`${token}.*${signature.slice(1)}`)}`,
      `${name}=${token}`,
      `${name}=${sessionCookie(foreign)[1]}`,
      `${name}=`,
      "theme=dark",
      "",
    ];
    for (const cookie of refused) {
      expect(await reader(headers(cookie))).toBeNull();
      expect(await betterAuth(cookie)).toBeNull();
    }
  });

  it("accepts what Better Auth accepts: a signature whose last character differs only in bits base64 drops", async () => {
    const client = await signedUp();
    const [name] = sessionCookie(client);
    const [token, signature] = decodeURIComponent(sessionCookie(client)[1]).split(".") as [string, string];
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    // 43 characters carry 258 bits: the last one's two lowest bits are not part of the 32 bytes.
    const last = alphabet.indexOf(signature[42]!);
    const loose = `${signature.slice(0, 42)}${alphabet[last ^ 1]}=`;
    expect((await expectSameAnswer(`${name}=${encodeURIComponent(`${token}.${loose}`)}`))?.session.token).toBe(token);
  });

  it("gives no session once it is deleted, although its cookie was read before", async () => {
    const client = await signedUp();
    await expectSameAnswer(cookieHeader(client));
    await db().deleteFrom("session").where("token", "=", tokenOf(client)).execute();
    expect(await reader(headers(cookieHeader(client)))).toBeNull();
    // The read that never waits: on SQLite the same; PostgreSQL's is a round trip, left to the chain.
    expect(await reader(headers(cookieHeader(client)), { waitless: true })).toBe(database().handle.dialect === "sqlite" ? null : undefined);
    expect(atOnce(cookieHeader(client))).toBe(database().handle.dialect === "sqlite" ? null : undefined);
  });

  it("gives no session for a deleted one, as Better Auth does", async () => {
    const gone = await signedUp();
    await db().deleteFrom("session").where("token", "=", tokenOf(gone)).execute();
    await expectSameAnswer(cookieHeader(gone));
    expect(await reader(headers(cookieHeader(gone)))).toBeNull();
  });

  it("hands a session that has ended, one past its absolute lifetime, one due to slide, and one kept without 'remember me' to Better Auth", async () => {
    const sessionRow = (client: AuthTestClient) => db().selectFrom("session").select("id").where("token", "=", tokenOf(client)).executeTakeFirst();
    const ended = await signedUp();
    await setLife(tokenOf(ended), { expiresInDays: -0.001 });
    expect(await reader(headers(cookieHeader(ended)))).toBeUndefined();
    expect(atOnce(cookieHeader(ended))).toBeUndefined();
    expect(await server.service.readSession(headers(cookieHeader(ended)))).toBeNull();
    expect(await sessionRow(ended)).toBeUndefined();

    // Dates that do not parse: Better Auth decides (the absolute lifetime then ends it).
    const garbled = await signedUp();
    if (database().handle.dialect === "sqlite") {
      await db().updateTable("session").set({ createdAt: "not a date" } as never).where("token", "=", tokenOf(garbled)).execute();
      expect(await reader(headers(cookieHeader(garbled)))).toBeUndefined();
      expect(atOnce(cookieHeader(garbled))).toBeUndefined();
      expect(await server.service.readSession(headers(cookieHeader(garbled)))).toBeNull();
    }

    // Just used, but signed in 31 days ago: deleted on read (sessions.server.ts), whatever its expiry says.
    const old = await signedUp();
    await setLife(tokenOf(old), { createdDaysAgo: 31, expiresInDays: 7 - 0.001 });
    expect(await reader(headers(cookieHeader(old)))).toBeUndefined();
    expect(atOnce(cookieHeader(old))).toBeUndefined();
    expect(await server.service.readSession(headers(cookieHeader(old)))).toBeNull();
    expect(await sessionRow(old)).toBeUndefined();

    const sliding = await signedUp();
    await setLife(tokenOf(sliding), { createdDaysAgo: 2, expiresInDays: 5 });
    expect(await reader(headers(cookieHeader(sliding)))).toBeUndefined();
    expect(atOnce(cookieHeader(sliding))).toBeUndefined();
    const slid = await server.service.readSession(headers(cookieHeader(sliding)));
    expect(slid?.session.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6.9 * day);
    // Slid, it is read without Better Auth again.
    await expectSameAnswer(cookieHeader(sliding));

    const email = `page-read-${randomUUID().slice(0, 8)}@example.tw`;
    const once = server.client();
    expect((await once.post("/sign-up/email", { email, password, name: "王小明" })).status).toBe(200);
    await db().updateTable("user").set({ emailVerified: verified() } as never).where("email", "=", email).execute();
    expect((await once.post("/sign-in/email", { email, password, rememberMe: false })).status).toBe(200);
    expect([...once.cookies.keys()].some((name) => name.endsWith("dont_remember"))).toBe(true);
    expect(await reader(headers(cookieHeader(once)))).toBeUndefined();
    expect(atOnce(cookieHeader(once))).toBeUndefined();
    expect(await server.service.readSession(headers(cookieHeader(once)))).toEqual(await betterAuth(cookieHeader(once)));
  });
});
