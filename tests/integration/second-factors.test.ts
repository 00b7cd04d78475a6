import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { getMigrations } from "better-auth/db/migration";
import { symmetricEncrypt } from "better-auth/crypto";
import { authOptions } from "~/features/auth/auth.server";
import { convertLegacyBackupCodes } from "~/features/auth/backup-codes.server";
import { authenticatorApp } from "~tests/helpers/authenticator-app";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";
import { verifiedAccount as createVerifiedAccount } from "./factories";

const password = "kite-river-7";
const newEmail = () => `two-step-${randomUUID().slice(0, 8)}@example.tw`;
const tokenFrom = (link: string) => new URL(link).searchParams.get("token") ?? "";

describeEachDatabase("second factors and email links", (database) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(database());
  });
  afterAll(async () => {
    await server.close();
  });

  /** A verified password account, signed in on the returned client. */
  const verifiedAccount = () => createVerifiedAccount(server, { prefix: "second", name: "小華", password });

  /** Turns two-step sign-in on for the signed-in client: enrol (password), confirm with the current code. */
  async function enrol(client: AuthTestClient) {
    const enabled = await client.post<{ totpURI: string; backupCodes: string[] }>("/two-factor/enable", { password });
    expect(enabled.status).toBe(200);
    const authenticator = authenticatorApp(enabled.body.totpURI);
    const firstCode = await authenticator();
    const confirmed = await client.post("/two-factor/verify-totp", { code: firstCode });
    expect(confirmed.status).toBe(200);
    expect((await client.me())?.email).toBeTruthy();
    return { ...enabled.body, firstCode, authenticator };
  }

  it("has the two-step tables Better Auth expects", async () => {
    const { toBeCreated, toBeAdded } = await getMigrations(authOptions(server.service));
    expect({ toBeCreated, toBeAdded }).toEqual({ toBeCreated: [], toBeAdded: [] });
  });

  it("asks a password sign-in for the code, accepts each code and backup code once, and trusts a device when asked", async () => {
    const { client, email } = await verifiedAccount();
    const { authenticator, backupCodes, firstCode } = await enrol(client);
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);

    const browser = server.client();
    const signIn = await browser.post("/sign-in/email", { email, password });
    expect(signIn).toMatchObject({ status: 200, body: { twoFactorRedirect: true } });
    expect(await browser.me()).toBeNull();

    // The code that confirmed the enrolment is spent; a wrong code is refused and does not block the right one.
    expect(await browser.post("/two-factor/verify-totp", { code: firstCode })).toMatchObject({ status: 401, body: { code: "auth/code-already-used" } });
    // Another code the app could show now (this step, the one before or after), not the spent one.
    const another = await authenticator();
    const valid = authenticator.acceptedNow();
    const wrong = ["000000", "111111", "222222", "333333"].find((code) => !valid.has(code)) ?? "";
    expect(await browser.post("/two-factor/verify-totp", { code: wrong })).toMatchObject({
      status: 401,
      body: { code: "auth/invalid-verification-code" },
    });
    expect((await browser.post("/two-factor/verify-totp", { code: another, trustDevice: true })).status).toBe(200);
    expect((await browser.me())?.email).toBe(email);

    // The same code again, from another browser: refused.
    const other = server.client();
    expect((await other.post("/sign-in/email", { email, password })).body).toMatchObject({ twoFactorRedirect: true });
    expect(await other.post("/two-factor/verify-totp", { code: another })).toMatchObject({ status: 401, body: { code: "auth/code-already-used" } });
    // A backup code works once.
    const [backup = ""] = backupCodes;
    expect((await other.post("/two-factor/verify-backup-code", { code: backup })).status).toBe(200);
    expect((await other.me())?.email).toBe(email);
    const third = server.client();
    await third.post("/sign-in/email", { email, password });
    expect((await third.post("/two-factor/verify-backup-code", { code: backup })).status).toBe(401);
    expect(await third.me()).toBeNull();

    // The trusted browser signs in again without a code.
    await browser.post("/sign-out", {});
    const again = await browser.post("/sign-in/email", { email, password });
    expect(again.status).toBe(200);
    expect(again.body).not.toHaveProperty("twoFactorRedirect");
    expect((await browser.me())?.email).toBe(email);
  });

  it("mails a single-use sign-in link only to an existing account and answers the same either way", async () => {
    const { email } = await verifiedAccount();
    const stranger = newEmail();
    const asked = await server.client().post("/email-link/request", { email });
    const unknown = await server.client().post("/email-link/request", { email: stranger });
    expect(asked).toMatchObject({ status: 200, body: { status: true } });
    expect(unknown).toMatchObject({ status: 200, body: { status: true } });
    await expect(server.latestMail(stranger)).rejects.toThrow();

    const mail = await server.latestMail(email, /登入連結/);
    const link = mail.links.find((candidate) => candidate.includes("/login/email-link")) ?? "";
    expect(new URL(link).pathname).toBe("/login/email-link");
    const token = tokenFrom(link);
    // Only a hash of the token is stored.
    const stored = await sql<{ identifier: string }>`select identifier from verification where identifier like 'email-link:%'`.execute(database().handle.db);
    expect(stored.rows.some((row) => row.identifier.includes(token))).toBe(false);

    // Opening the link (a GET, as a mail scanner does) signs nobody in and spends nothing.
    expect((await server.client().get(`/email-link/sign-in?token=${token}`)).status).toBeGreaterThanOrEqual(400);
    const [first, second] = await Promise.all([server.client(), server.client()].map(async (client) => ({ client, answer: await client.post("/email-link/sign-in", { token }) })));
    const statuses = [first?.answer.status, second?.answer.status].sort();
    expect(statuses).toEqual([200, 401]);
    const winner = first?.answer.status === 200 ? first.client : second?.client;
    expect((await winner?.me())?.email).toBe(email);
    expect(await server.client().post("/email-link/sign-in", { token })).toMatchObject({ status: 401, body: { code: "auth/invalid-action-code" } });
  });

  it("refuses an expired sign-in link", async () => {
    const { email } = await verifiedAccount();
    await server.client().post("/email-link/request", { email });
    const link = (await server.latestMail(email, /登入連結/)).links.find((candidate) => candidate.includes("/login/email-link")) ?? "";
    const past = database().handle.dialect === "postgres" ? new Date(Date.now() - 1000) : new Date(Date.now() - 1000).toISOString();
    await sql`update verification set "expiresAt" = ${past} where identifier like 'email-link:%'`.execute(database().handle.db);
    expect(await server.client().post("/email-link/sign-in", { token: tokenFrom(link) })).toMatchObject({ status: 401, body: { code: "auth/invalid-action-code" } });
  });

  it("asks an email-link sign-in for the code when two-step sign-in is on", async () => {
    const { client, email } = await verifiedAccount();
    const { authenticator } = await enrol(client);
    await server.client().post("/email-link/request", { email });
    const link = (await server.latestMail(email, /登入連結/)).links.find((candidate) => candidate.includes("/login/email-link")) ?? "";
    const browser = server.client();
    expect(await browser.post("/email-link/sign-in", { token: tokenFrom(link) })).toMatchObject({ status: 200, body: { twoFactorRedirect: true } });
    expect(await browser.me()).toBeNull();
    expect((await browser.post("/two-factor/verify-totp", { code: await authenticator() })).status).toBe(200);
    expect((await browser.me())?.email).toBe(email);
  });

  it("turns two-step sign-in off with the password; the next sign-in asks for no code", async () => {
    const { client, email } = await verifiedAccount();
    await enrol(client);
    const on = await server.latestMail(email, /兩步驟驗證/);
    expect(on.subject).toBe("【任務小勇士】安全通知：已開啟兩步驟驗證");
    expect(await client.post("/two-factor/disable", { password: "not-the-password" })).toMatchObject({ status: 400, body: { code: "auth/invalid-credential" } });
    expect((await client.post("/two-factor/disable", { password })).status).toBe(200);
    expect((await server.latestMail(email, /已關閉兩步驟驗證/)).text).toContain("你的帳號剛剛關閉了兩步驟驗證");
    const browser = server.client();
    expect((await browser.post("/sign-in/email", { email, password })).body).not.toHaveProperty("twoFactorRedirect");
    expect((await browser.me())?.email).toBe(email);
  });
  it("makes a new set of ten backup codes on the password, and the old set stops working", async () => {
    const { client, email } = await verifiedAccount();
    const { backupCodes: old } = await enrol(client);
    expect(await client.post("/two-factor/generate-backup-codes", { password: "not-the-password" })).toMatchObject({ status: 400, body: { code: "auth/invalid-credential" } });
    const made = await client.post<{ backupCodes: string[] }>("/two-factor/generate-backup-codes", { password });
    expect(made.status).toBe(200);
    expect(made.body.backupCodes).toHaveLength(10);
    expect(made.body.backupCodes.filter((code) => old.includes(code))).toEqual([]);

    const browser = server.client();
    expect((await browser.post("/sign-in/email", { email, password })).body).toMatchObject({ twoFactorRedirect: true });
    expect(await browser.post("/two-factor/verify-backup-code", { code: old[0] })).toMatchObject({ status: 401, body: { code: "auth/invalid-backup-code" } });
    expect(await browser.me()).toBeNull();
    expect((await browser.post("/two-factor/verify-backup-code", { code: made.body.backupCodes[0] })).status).toBe(200);
    expect((await browser.me())?.email).toBe(email);
  });

  it("hands out backup codes a parent copies by hand, keeps only salted hashes, and takes them typed any way", async () => {
    const { client, email } = await verifiedAccount();
    const { backupCodes } = await enrol(client);
    for (const code of backupCodes) expect(code).toMatch(/^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
    const userId = (await client.me())?.uid ?? "";
    const stored = await sql<{ backupCodes: string }>`select "backupCodes" from "twoFactor" where "userId" = ${userId}`.execute(database().handle.db);
    const kept = stored.rows[0]?.backupCodes ?? "";
    expect(kept.startsWith("hashed:")).toBe(true);
    const entries = JSON.parse(kept.slice("hashed:".length)) as string[];
    expect(entries).toHaveLength(10);
    // One salt per code: the same code stored twice would not look the same.
    expect(new Set(entries.map((entry) => entry.split("$")[0])).size).toBe(10);
    for (const code of backupCodes) expect(kept).not.toContain(code.replace("-", ""));

    const [first = "", second = ""] = backupCodes;
    const browser = server.client();
    expect((await browser.post("/sign-in/email", { email, password })).body).toMatchObject({ twoFactorRedirect: true });
    expect((await browser.post("/two-factor/verify-backup-code", { code: ` ${first.toLowerCase().replace("-", " ")} ` })).status).toBe(200);
    expect((await browser.me())?.email).toBe(email);
    const again = server.client();
    await again.post("/sign-in/email", { email, password });
    expect(await again.post("/two-factor/verify-backup-code", { code: first })).toMatchObject({ status: 401, body: { code: "auth/invalid-backup-code" } });
    expect((await again.post("/two-factor/verify-backup-code", { code: second })).status).toBe(200);
  });

  it("keeps codes of the earlier format (one ciphertext) working, and converts them to hashes", async () => {
    const { client, email } = await verifiedAccount();
    await enrol(client);
    const userId = (await client.me())?.uid ?? "";
    const legacy = ["XXRR0-8WwKF", "ab1cD-eF2gh"];
    const secret = server.service.env.AUTH_SECRET ?? "development-secret-for-loopback-sites-only-0123456789";
    const ciphertext = await symmetricEncrypt({ key: secret, data: JSON.stringify(legacy) });
    await sql`update "twoFactor" set "backupCodes" = ${ciphertext} where "userId" = ${userId}`.execute(database().handle.db);

    const browser = server.client();
    await browser.post("/sign-in/email", { email, password });
    expect((await browser.post("/two-factor/verify-backup-code", { code: legacy[0] })).status).toBe(200);
    const afterUse = await sql<{ backupCodes: string }>`select "backupCodes" from "twoFactor" where "userId" = ${userId}`.execute(database().handle.db);
    expect(afterUse.rows[0]?.backupCodes.startsWith("hashed:")).toBe(true);
    expect(afterUse.rows[0]?.backupCodes).not.toContain("ab1cD");

    await sql`update "twoFactor" set "backupCodes" = ${ciphertext} where "userId" = ${userId}`.execute(database().handle.db);
    expect(await convertLegacyBackupCodes(database().handle.db, secret)).toBeGreaterThanOrEqual(1);
    const converted = await sql<{ backupCodes: string }>`select "backupCodes" from "twoFactor" where "userId" = ${userId}`.execute(database().handle.db);
    expect(converted.rows[0]?.backupCodes.startsWith("hashed:")).toBe(true);
    const later = server.client();
    await later.post("/sign-in/email", { email, password });
    expect((await later.post("/two-factor/verify-backup-code", { code: legacy[1] })).status).toBe(200);
  });
});

describe("two-step sign-in paths", () => {
  it("asks for the code after every one-factor way in, the pop-up's callbacks too, and not after a passkey", async () => {
    const { authEndpoint } = await import("~/features/auth/index.server");
    for (const path of ["/sign-in/email", "/email-link/sign-in", "/callback/google", "/callback/line", "/callback/dev"]) {
      expect(authEndpoint(path)?.oneFactor, path).toBe(true);
    }
    expect(authEndpoint("/passkey/sign-in/verify")?.oneFactor).toBeUndefined();
  });
});
