import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  pruneSecurityRecord,
  recordSecurityEvent,
  recordSecurityEvents,
  securityRecordOf,
  verifySecurityRecord,
} from "~/features/security-record/security-record.server";
import { describeEachDatabase, type TestDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestServer } from "./auth-server";
import { devProviderRoundTrip, signInWithDevProvider } from "./dev-provider-round-trip";

const password = "harbour-kite-73";
const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

const rowsOf = async (database: TestDatabase, userId: string) =>
  database.handle.db.selectFrom("security_record").selectAll().where("user_id", "=", userId).orderBy("seq").execute();

// Item 1 of the operator's side: every security event lands once in the database, chained by hashes.
describeEachDatabase("security record: events", (database) => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer(database());
  });
  afterAll(async () => {
    await server.close();
  });

  it("records each event of the sign-in layer once, with address and browser, and never a secret", async () => {
    const email = `record-${randomUUID().slice(0, 8)}@example.tw`;
    const first = server.client();
    expect((await first.post("/sign-up/email", { email, password, name: "小華" })).status).toBe(200);
    const mail = await server.latestMail(email, /驗證/);
    const link = mail.links.find((candidate) => candidate.includes("/verify-email")) ?? "";
    const token = new URL(link).searchParams.get("token") ?? "";
    expect((await first.get(`/verify-email?token=${encodeURIComponent(token)}`)).status).toBe(200);
    const phone = server.client({ userAgent: iphone });
    expect((await phone.post("/sign-in/email", { email, password: "not-the-password" })).status).toBe(401);
    expect((await phone.post("/sign-in/email", { email, password })).status).toBe(200);
    const fresh = "harbour-kite-74-new";
    expect((await phone.post("/change-password", { currentPassword: password, newPassword: fresh })).status).toBe(200);
    expect((await phone.post("/sign-out")).status).toBe(200);

    const user = await database().handle.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const rows = await rowsOf(database(), user.id);
    expect(rows.map((row) => [row.event, row.outcome])).toEqual([
      ["sign-up", "success"],
      ["email-verification", "success"],
      ["sign-in", "refused"],
      ["new-device", "success"],
      ["sign-in", "success"],
      ["password-change", "success"],
      ["sign-out", "success"],
    ]);
    const refused = rows[2]!;
    expect(refused.code).toBe("INVALID_EMAIL_OR_PASSWORD");
    expect(refused.ip).toBe(phone.ip);
    expect(refused.user_agent).toBe(iphone);
    // The chain: each row names the hash of the row before it, and the whole record verifies.
    const all = await database().handle.db.selectFrom("security_record").selectAll().orderBy("seq").execute();
    all.slice(1).forEach((row, index) => expect(row.prev_hash).toBe(all[index]!.hash));
    expect(await verifySecurityRecord(database().handle)).toMatchObject({ ok: true, rows: all.length });
    // Nothing that could sign anyone in is kept.
    const everything = JSON.stringify(all);
    for (const secret of [password, fresh, "not-the-password", token, link]) expect(everything).not.toContain(secret);
  });

  it("records a provider's sign-in by how its callback ends: signed in, refused with the provider's error, or linked", async () => {
    const parent = server.client();
    const email = `provider-${randomUUID().slice(0, 8)}@example.tw`;
    expect(await signInWithDevProvider(server, parent, email)).toBe("/account");
    const user = await database().handle.db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();

    // A pop-up whose code the provider refuses: its landing page posts the error, and the record says refused.
    const stranger = server.client();
    const popup = new URL(`${server.baseURL}/api/auth/oauth-popup/start`);
    popup.search = new URLSearchParams({ provider: "dev", popupOrigin: server.baseURL, popupNonce: "nonce-1", callbackURL: `${server.baseURL}/` }).toString();
    const end = await devProviderRoundTrip(server, stranger, popup.href, `stranger-${randomUUID().slice(0, 8)}@example.tw`, { code: "a-code-never-issued" });
    expect("landing" in end && (await end.landing.text())).toContain("invalid_code");

    // The signed-in parent links the provider as a second address: one link, not a second sign-in.
    const linking = await parent.post<{ url: string }>("/link-social", { provider: "dev", callbackURL: "/account" });
    expect(linking.status).toBe(200);
    expect(await devProviderRoundTrip(server, parent, linking.body.url, `second-${randomUUID().slice(0, 8)}@example.tw`)).toEqual({ path: "/account" });

    const rows = await rowsOf(database(), user.id);
    expect(rows.map((row) => [row.event, row.outcome]).filter(([event]) => event !== "new-device")).toEqual([
      ["sign-in", "success"],
      ["sign-in-method-link", "success"],
    ]);
    const refusal = await database().handle.db.selectFrom("security_record").selectAll().where("ip", "=", stranger.ip).execute();
    expect(refusal.map((row) => [row.event, row.outcome, row.code, row.user_id])).toEqual([["sign-in", "refused", "invalid_code", null]]);
  });

  it("keeps its chain whole under many writers at once, and lists an account's rows newest first", async () => {
    const userId = `writer-${randomUUID()}`;
    await Promise.all(Array.from({ length: 40 }, (_, n) => recordSecurityEvent(database().handle, { event: "family-change", userId, detail: { n } })));
    const rows = await securityRecordOf(database().handle, userId, { since: new Date(Date.now() - 60_000), limit: 100 });
    expect(rows).toHaveLength(40);
    expect(rows.map((row) => row.seq)).toEqual([...rows.map((row) => row.seq)].sort((a, b) => b - a));
    expect(new Set(rows.map((row) => row.detail?.n)).size).toBe(40);
    expect((await verifySecurityRecord(database().handle)).ok).toBe(true);
  });

  it("appends one request's events in their order, each chained to the one before, beside other writers", async () => {
    const userId = `batch-${randomUUID()}`;
    await Promise.all([
      recordSecurityEvents(database().handle, [
        { event: "new-device", userId },
        { event: "sign-in", userId },
      ]),
      recordSecurityEvent(database().handle, { event: "family-change", userId }),
      recordSecurityEvents(database().handle, [
        { event: "new-device", userId, detail: { n: 2 } },
        { event: "sign-in", userId, detail: { n: 2 } },
      ]),
    ]);
    const rows = await rowsOf(database(), userId);
    expect(rows.map((row) => row.event)).toEqual(expect.arrayContaining(["new-device", "sign-in", "family-change"]));
    const pairs = rows.flatMap((row, index) => (row.event === "new-device" ? [[row, rows[index + 1]]] : []));
    expect(pairs).toHaveLength(2);
    for (const [device, signIn] of pairs) {
      expect(signIn?.event).toBe("sign-in");
      expect(Number(signIn?.seq)).toBe(Number(device?.seq) + 1);
      expect(signIn?.prev_hash).toBe(device?.hash);
    }
    expect((await verifySecurityRecord(database().handle)).ok).toBe(true);
  });

  it("drops detail fields that could hold a secret or a link", async () => {
    const userId = `detail-${randomUUID()}`;
    await recordSecurityEvent(database().handle, {
      event: "admin-lock",
      userId,
      detail: { reason: "家長來信", resetToken: "abc", where: "https://evil.example/x", password: "p" },
    });
    const [row] = await securityRecordOf(database().handle, userId, { since: new Date(0), limit: 1 });
    expect(row?.detail).toEqual({ reason: "家長來信" });
  });
});

describeEachDatabase("security record: tampering", (database) => {
  const append = (count: number, userId: string) =>
    (async () => {
      for (let n = 0; n < count; n += 1) await recordSecurityEvent(database().handle, { event: "sign-in", userId, ip: `192.0.2.${n}` });
    })();

  it("audit:verify finds an edited row, then a removed one, then a removed newest one", async () => {
    const { db } = database().handle;
    await append(6, "tamper");
    expect((await verifySecurityRecord(database().handle)).ok).toBe(true);

    await db.updateTable("security_record").set({ ip: "203.0.113.9" }).where("seq", "=", 3).execute();
    expect(await verifySecurityRecord(database().handle)).toMatchObject({ ok: false, seq: 3, problem: "第 3 筆的內容被改過" });
    await db.updateTable("security_record").set({ ip: "192.0.2.2" }).where("seq", "=", 3).execute();
    expect((await verifySecurityRecord(database().handle)).ok).toBe(true);

    await db.deleteFrom("security_record").where("seq", "=", 4).execute();
    expect(await verifySecurityRecord(database().handle)).toMatchObject({ ok: false, seq: 5, problem: "第 4 筆到第 4 筆不見了" });
  });
});

describeEachDatabase("security record: a removed newest row", (database) => {
  it("is found through the head", async () => {
    for (let n = 0; n < 3; n += 1) await recordSecurityEvent(database().handle, { event: "sign-out", userId: "tail" });
    await database().handle.db.deleteFrom("security_record").where("seq", "=", 3).execute();
    expect(await verifySecurityRecord(database().handle)).toMatchObject({ ok: false, problem: "最後 1 筆（到第 3 筆）不見了" });
  });
});

describeEachDatabase("security record: retention", (database) => {
  it("removes only rows past the retention and the rest still verifies", async () => {
    for (let n = 0; n < 3; n += 1) await recordSecurityEvent(database().handle, { event: "sign-in", userId: "old" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const boundary = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (let n = 0; n < 2; n += 1) await recordSecurityEvent(database().handle, { event: "sign-in", userId: "new" });
    const days = 1830;
    // "Now" is exactly the retention after the boundary: the three older rows are past it, the two newer are not.
    const now = new Date(boundary.getTime() + days * 86_400_000);
    expect(await pruneSecurityRecord(database().handle, days, now)).toBe(3);
    const left = await database().handle.db.selectFrom("security_record").select(["seq", "user_id"]).orderBy("seq").execute();
    expect(left.map((row) => [Number(row.seq), row.user_id])).toEqual([
      [4, "new"],
      [5, "new"],
    ]);
    expect(await verifySecurityRecord(database().handle)).toMatchObject({ ok: true, rows: 2 });
    expect(await pruneSecurityRecord(database().handle, days, now)).toBe(0);
    // Appending after a prune continues the chain.
    await recordSecurityEvent(database().handle, { event: "sign-out", userId: "new" });
    expect(await verifySecurityRecord(database().handle)).toMatchObject({ ok: true, rows: 3 });
  });
});
