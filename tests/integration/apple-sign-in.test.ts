import { Hono } from "hono";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "~tests/helpers/databases";
import { appleEnv, startFakeApple, type FakeApple } from "~tests/fixtures/fake-apple";
import { appleNotificationEndpoint, exportUserData } from "~/features/auth/index.server";
import { revokeDueAppleTokens } from "~/features/auth/apple-revocations.server";
import { appleKeys } from "~/features/auth/apple.server";
import { getLogger } from "~/services/logger.server";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";

// Sign in with Apple against a fake Apple on loopback (tests/fixtures/fake-apple.ts) over HTTP: the form_post
// callback from Apple's origin, the name kept from the first sign-in only, relay addresses verified; Apple's
// server-to-server notifications (only Apple's signature is taken); Apple's tokens revoked after the account's
// deletion, kept and retried while Apple is away. The browser's round trip is tests/e2e/sign-in-with-apple.test.ts.

describeEachDatabase("Sign in with Apple", (database) => {
  let apple: FakeApple;
  let server: AuthTestServer;
  beforeAll(async () => {
    apple = await startFakeApple();
    server = await startAuthServer(database(), appleEnv(apple), {
      routes: (service) => new Hono().all("/api/apple/notifications", (c) => appleNotificationEndpoint(service)(c.req.raw)),
    });
  });
  afterAll(async () => {
    await server.close();
    await apple.close();
  });

  const newPerson = (firstName = "小明", lastName = "王") => {
    const id = randomUUID().slice(0, 8);
    apple.person = { sub: `001234.${id}.0101`, email: `${id}@privaterelay.appleid.com`, firstName, lastName };
    return apple.person;
  };

  /** The browser's part: start at the site, let Apple's page post its form back (from Apple's origin), follow. */
  async function signInWithApple(client: AuthTestClient) {
    const start = await client.post<{ url: string }>("/sign-in/social", { provider: "apple", callbackURL: "/" });
    expect(start.status).toBe(200);
    const authorize = new URL(start.body.url);
    expect(authorize.origin).toBe(apple.origin);
    expect(authorize.searchParams.get("response_mode")).toBe("form_post");
    const page = await (await fetch(authorize)).text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1] ?? "";
    const fields = new URLSearchParams([...page.matchAll(/name="(\w+)" value="([^"]*)"/g)].map(([, name = "", value = ""]) => [name, value.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&amp;/g, "&")]));
    // What the browser sends with Apple's cross-site form post: Apple's Origin (its page's: APPLE_URL) and only the cookies that allow it.
    const posted = await fetch(action, {
      method: "POST",
      headers: { origin: apple.origin, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": client.ip, cookie: "theme=dark" },
      body: fields,
      redirect: "manual",
    });
    expect(posted.status).toBe(302);
    const back = new URL(posted.headers.get("location") ?? "");
    const finished = await client.request("GET", `${back.pathname}${back.search}`);
    expect(finished.status).toBe(302);
    expect(finished.headers.get("location")).not.toMatch(/error/);
    return { sentName: fields.has("user") };
  }

  it("signs in through Apple's form post, keeps the name Apple sends the first time only, takes the relay address as verified", async () => {
    const person = newPerson("小明", "王");
    const first = server.client();
    expect((await signInWithApple(first)).sentName).toBe(true);
    const user = await first.me();
    expect(user).toMatchObject({ email: person.email, emailVerified: true, displayName: "王小明" });

    const again = server.client();
    expect((await signInWithApple(again)).sentName).toBe(false);
    expect(await again.me()).toMatchObject({ uid: user?.uid, displayName: "王小明" });
    // Every client secret Apple saw was good (ES256, team, client id, Apple's audience).
    expect(apple.refusedSecrets).toEqual([]);
  });

  it("records a good Apple sign-in as succeeded in the log's record and the metrics, not as refused with 302", async () => {
    const person = newPerson();
    const client = server.client();
    await signInWithApple(client);
    const userId = (await client.me())?.uid ?? "";
    const rows = await server.service.database.db.selectFrom("security_record").select(["event", "outcome", "code", "ip"]).where("user_id", "=", userId).where("event", "=", "sign-in").execute();
    expect(rows).toEqual([{ event: "sign-in", outcome: "success", code: null, ip: client.ip }]);
    expect(person.email).toMatch(/@privaterelay/);
  });

  it("treats an ID token's email_verified \"false\" as unverified: it never signs into an existing account with that address", async () => {
    const email = `owner-${randomUUID().slice(0, 8)}@example.tw`;
    const owner = server.client();
    expect((await owner.post("/sign-up/email", { email, password: "a long enough passphrase 42", name: "帳號主人" })).status).toBe(200);
    const ownerId = (await owner.me())?.uid;
    await server.service.database.db.updateTable("user").set({ emailVerified: 1 }).where("id", "=", ownerId ?? "").execute();

    apple.person = { sub: `001234.${randomUUID().slice(0, 8)}.0101`, email, firstName: "假", lastName: "冒", emailVerified: "false" };
    const stranger = server.client();
    const start = await stranger.post<{ url: string }>("/sign-in/social", { provider: "apple", callbackURL: "/" });
    const page = await (await fetch(start.body.url)).text();
    const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1] ?? "";
    const fields = new URLSearchParams([...page.matchAll(/name="(\w+)" value="([^"]*)"/g)].map(([, name = "", value = ""]) => [name, value.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&amp;/g, "&")]));
    const posted = await fetch(action, { method: "POST", headers: { origin: apple.origin, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": stranger.ip }, body: fields, redirect: "manual" });
    const back = new URL(posted.headers.get("location") ?? "");
    const finished = await stranger.request("GET", `${back.pathname}${back.search}`);
    expect(finished.headers.get("location")).toMatch(/error=account_not_linked/);
    expect(await stranger.me()).toBeNull();
    const links = await server.service.database.db.selectFrom("account").select("providerId").where("userId", "=", ownerId ?? "").execute();
    expect(links.map((link) => link.providerId)).toEqual(["credential"]);
  });

  it("takes a notification only with Apple's signature: consent revoked ends the sessions and the Apple link", async () => {
    const person = newPerson("Anna", "Chen");
    const client = server.client();
    await signInWithApple(client);
    const userId = (await client.me())?.uid ?? "";
    expect((await server.client().me())).toBeNull();
    const db = server.service.database.db;
    const appleLinks = () => db.selectFrom("account").select("id").where("userId", "=", userId).where("providerId", "=", "apple").execute();
    const notify = (payload: string) => fetch(`${server.baseURL}/api/apple/notifications`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ payload }) });
    const revoked = { type: "consent-revoked", sub: person.sub };

    // Not Apple's: another key, another app's audience, an event of an unknown type, not a JWT at all.
    const unknownType = await apple.notification({ type: "password-changed", sub: person.sub });
    for (const forged of [await apple.notification(revoked, { signWith: "forger" }), await apple.notification(revoked, { audience: "another.app" }), unknownType, "not-a-jwt"]) {
      const answer = await notify(forged);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: { code: "apple/invalid-notification" } });
    }
    // A body that is not the notification's shape is a clear refusal, never a 5xx.
    for (const body of ["not json", JSON.stringify({ payload: 42 }), JSON.stringify([])]) {
      const answer = await fetch(`${server.baseURL}/api/apple/notifications`, { method: "POST", headers: { "content-type": "application/json" }, body });
      expect(answer.status).toBe(400);
    }
    expect((await fetch(`${server.baseURL}/api/apple/notifications`)).status).toBe(405);
    expect(await client.me()).toMatchObject({ uid: userId });
    expect(await appleLinks()).toHaveLength(1);

    expect((await notify(await apple.notification(revoked))).status).toBe(200);
    expect(await client.me()).toBeNull();
    expect(await appleLinks()).toHaveLength(0);
    const events = await db.selectFrom("security_record").select("event").where("user_id", "=", userId).execute();
    expect(events.map((row) => row.event)).toContain("apple-consent-revoked");
    // The name shows with the account (Latin names given name first).
    expect((await db.selectFrom("user").select("name").where("id", "=", userId).executeTakeFirst())?.name).toBe("Anna Chen");
  });

  it("account-delete from Apple deletes an account that has no other way in", async () => {
    const person = newPerson();
    const client = server.client();
    await signInWithApple(client);
    const userId = (await client.me())?.uid ?? "";
    const answer = await fetch(`${server.baseURL}/api/apple/notifications`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ payload: await apple.notification({ type: "account-delete", sub: person.sub }) }) });
    expect(answer.status).toBe(200);
    expect(await server.service.database.db.selectFrom("user").select("id").where("id", "=", userId).executeTakeFirst()).toBeUndefined();
  });

  it("revokes Apple's refresh token after the account is deleted, retrying while Apple is away", async () => {
    newPerson();
    const client = server.client();
    await signInWithApple(client);
    const userId = (await client.me())?.uid ?? "";
    const db = server.service.database.db;
    const refreshToken = (await db.selectFrom("account").select("refreshToken").where("userId", "=", userId).where("providerId", "=", "apple").executeTakeFirst())?.refreshToken;
    expect(refreshToken).toMatch(/^r/);
    // Kept only to revoke it: no part of the copy of the person's data.
    expect(Object.keys(await exportUserData(db, userId))).not.toContain("apple-tokens");

    apple.down = true;
    expect((await client.post("/delete-user", {})).status).toBe(200);
    expect(await db.selectFrom("user").select("id").where("id", "=", userId).executeTakeFirst()).toBeUndefined();
    // The deletion's transaction kept the token; the attempt after the commit found Apple away.
    const keys = appleKeys(server.service.env);
    if (!keys) throw new Error("Apple is configured in this suite");
    await revokeDueAppleTokens(db, keys, getLogger());
    const waiting = await db.selectFrom("apple_token_revocation").selectAll().where("token", "=", refreshToken ?? "").executeTakeFirstOrThrow();
    expect(waiting.attempts).toBeGreaterThan(0);
    expect(waiting.last_error).toMatch(/503/);
    expect(apple.revoked).toEqual([]);

    apple.down = false;
    await db.updateTable("apple_token_revocation").set({ next_attempt_at: new Date(0).toISOString() }).where("id", "=", waiting.id).execute();
    expect(await revokeDueAppleTokens(db, keys, getLogger())).toBe(1);
    expect(apple.revoked).toEqual([{ token: refreshToken, tokenTypeHint: "refresh_token" }]);
    expect(await db.selectFrom("apple_token_revocation").select("id").execute()).toEqual([]);
  });
});
