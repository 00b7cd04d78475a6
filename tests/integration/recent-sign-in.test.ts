import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authEndpointFor, authEndpoints } from "~/features/auth/index.server";
import { RECENT_SIGN_IN_SECONDS } from "~/features/auth/recent-sign-in.server";
import { authenticatorApp } from "~tests/helpers/authenticator-app";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestServer } from "./auth-server";
import { verifiedAccount } from "./factories";

const password = "lantern-harbour-9";
const refused = { status: 403, body: { code: "auth/requires-recent-login", message: "請先確認是你本人" } };

/** Bodies an endpoint would take past its schema (the others take `{}`), so a fresh session meets the endpoint's own answer. */
const bodies: Readonly<Record<string, Record<string, unknown>>> = {
  "/passkey/register/verify": { response: { id: "x", rawId: "x", type: "public-key", response: {} } },
  "/passkey/delete": { id: "no-such-passkey" },
};

/**
 * Every sensitive change, read from the endpoint table (every row whose `recentSignIn` is set), never a hand list:
 * a new way in's rows join it by declaring the rule.
 */
const sensitiveChanges: [path: string, body: Record<string, unknown>][] = authEndpoints
  .filter((row) => row.recentSignIn && row.methods.includes("POST"))
  .map((row) => [row.path, bodies[row.path] ?? {}]);

// Recent sign-in (the original's requires-recent-login): one guard on every sensitive change, one confirm step.
describeEachDatabase("recent sign-in", (database) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(database(), { RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT: "3/900" });
  });
  afterAll(async () => {
    await server.close();
  });

  const signedIn = () => verifiedAccount(server, { prefix: "recent", password });

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
    expect(refused.body).toEqual({ code: "auth/requires-recent-login", message: "請先確認是你本人" });
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

  /** Takes the password away (a provider stands in for it), as for an account that signs in with Google only. */
  async function withoutPassword(email: string) {
    const { db } = server.service.database;
    const user = await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await db.insertInto("account").values({ id: randomUUID(), accountId: `dev-${randomUUID()}`, providerId: "dev", userId: user.id, password: null, createdAt: now, updatedAt: now }).execute();
    await db.deleteFrom("account").where("userId", "=", user.id).where("providerId", "=", "credential").execute();
  }

  it("lets a fresh session reach every sensitive change of the table, and refuses an 11-minute-old one", async () => {
    const { email, client } = await signedIn();
    for (const [path, body] of sensitiveChanges) {
      const answer = await client.post(path, body);
      // The endpoint's own answer (a passkey it cannot find, a password it wants), never the guard's.
      expect({ path, code: (answer.body as { code?: string }).code }).not.toEqual({ path, code: "auth/requires-recent-login" });
      expect({ path, status: answer.status }).not.toEqual({ path, status: 403 });
    }
    await age(email, 11 * 60);
    for (const [path, body] of sensitiveChanges) {
      const answer = await client.post(path, body);
      // A change that takes the password as its confirmation may ask for that password first: no change either way.
      const asksPassword = typeof authEndpointFor({ path })?.recentSignIn === "object" && answer.status === 400 && (answer.body as { code?: string }).code === "auth/missing-password";
      if (!asksPassword) expect({ path, answer }).toMatchObject({ path, answer: refused });
    }
    // Two-step sign-in on with the password in the form: that password is the confirmation.
    expect((await client.post("/two-factor/enable", { password })).status).toBe(200);
    expect(await client.post("/two-factor/enable", { password: "not-the-password" })).toMatchObject({ status: 400, body: { code: "auth/invalid-credential" } });
  });

  it("takes no password field as a confirmation from an account that has no password", async () => {
    const { email, client } = await signedIn();
    await withoutPassword(email);
    await age(email, 11 * 60);
    for (const path of ["/two-factor/enable", "/two-factor/disable", "/two-factor/generate-backup-codes"]) {
      expect({ path, answer: await client.post(path, { password: "anything-at-all-1" }) }).toMatchObject({ path, answer: refused });
    }
  });

  it("takes a right two-step code from the signed-in account as the confirmation", async () => {
    const { email, client } = await signedIn();
    const enabled = await client.post<{ totpURI: string }>("/two-factor/enable", { password });
    const authenticator = authenticatorApp(enabled.body.totpURI);
    expect((await client.post("/two-factor/verify-totp", { code: await authenticator() })).status).toBe(200);
    await age(email, 11 * 60);
    expect(await client.post("/passkey/register/options", {})).toMatchObject(refused);

    const accepted = authenticator.acceptedNow();
    const wrong = ["000000", "111111", "222222"].find((code) => !accepted.has(code)) ?? "";
    expect((await client.post("/two-factor/verify-totp", { code: wrong })).status).toBe(401);
    expect(await client.post("/passkey/register/options", {})).toMatchObject(refused);
    expect((await client.post("/two-factor/verify-totp", { code: await authenticator() })).status).toBe(200);
    expect((await client.me())?.email).toBe(email);
    expect((await client.post("/passkey/register/options", {})).status).toBe(200);
    // An account without a password turns two-step sign-in off after its code.
    await withoutPassword(email);
    expect((await client.post("/two-factor/disable", {})).status).toBe(200);
  });
});

describe("the recent-sign-in rows of the endpoint table", () => {
  it("mark every sensitive change, and only those", () => {
    const guarded = authEndpoints.filter((row) => row.recentSignIn).map((row) => row.path);
    expect(guarded.sort()).toEqual(
      [
        "/change-email",
        "/change-password",
        "/delete-user",
        "/link-social",
        "/passkey/delete",
        "/passkey/register/options",
        "/passkey/register/verify",
        "/phone-number/remove",
        "/set-password",
        "/sign-in-methods/remove",
        "/two-factor/disable",
        "/two-factor/enable",
        "/two-factor/generate-backup-codes",
      ].sort(),
    );
    // A row that depends on the request: attaching a number to the signed-in account is guarded, signing in is not.
    const variants = authEndpoints.filter((row) => row.byRequest?.rules.recentSignIn).map((row) => row.path);
    expect(variants).toEqual(["/phone-number/verify"]);
    expect(authEndpointFor({ path: "/phone-number/verify", body: { updatePhoneNumber: true } })?.recentSignIn).toBe(true);
    expect(authEndpointFor({ path: "/phone-number/verify", body: {} })?.recentSignIn).toBeUndefined();
  });
});
