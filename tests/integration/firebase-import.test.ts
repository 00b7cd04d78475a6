import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { firebaseScryptHash } from "~/features/firebase-import/firebase-scrypt.server";
import { importFirebaseUsers, ExportFileError, ImportRefused } from "~/features/firebase-import/import-users.server";
import { metricsText } from "~/services/metrics.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";

// A Firebase project's hash parameters (the published test vector's; real projects have their own key).
const parameters = {
  signerKey: "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==",
  saltSeparator: "Bw==",
  rounds: 8,
  memCost: 14,
};
/** One counter's value as `/metrics` shows it (the Prometheus text METRICS_PORT serves). */
async function metric(name: string, outcome: string) {
  const line = (await metricsText()).split("\n").find((row) => row.startsWith(`${name}{outcome="${outcome}"}`));
  return line ? Number(line.split(" ").at(-1)) : 0;
}
const uid = () => randomBytes(21).toString("base64url").slice(0, 28);
const number = () => `+8869${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;

/** What `firebase auth:export --format=json` writes for a password user, with Firebase's own hash of `password`. */
async function passwordUser(email: string, password: string, extra: Record<string, unknown> = {}) {
  const salt = randomBytes(12).toString("base64");
  return {
    localId: uid(),
    email,
    emailVerified: true,
    passwordHash: await firebaseScryptHash(password, salt, parameters),
    salt,
    displayName: "林媽媽",
    createdAt: "1700000000000",
    lastSignedInAt: "1710000000000",
    providerUserInfo: [{ providerId: "password", rawId: email, federatedId: email, email }],
    ...extra,
  };
}

describeEachDatabase("the Firebase accounts import", (database) => {
  let server: AuthTestServer;
  const run = randomUUID().slice(0, 8);
  const password = "firebase-kite-42";
  const users: Record<string, Record<string, unknown>> = {};
  const exportText = () => JSON.stringify({ users: Object.values(users) });

  beforeAll(async () => {
    server = await startAuthServer(database(), { RATE_LIMIT_SMS_PER_IP: "50/3600", RATE_LIMIT_SIGN_IN_PER_IP: "200/60" });
    users.parent = await passwordUser(`parent-${run}@example.tw`, password);
    users.unverified = await passwordUser(`unverified-${run}@example.tw`, password, { emailVerified: false });
    users.disabled = await passwordUser(`disabled-${run}@example.tw`, password, { disabled: true });
    const googleId = `1${Date.now()}`;
    users.google = {
      localId: uid(),
      email: `google-${run}@gmail.com`,
      emailVerified: true,
      displayName: "王爸爸",
      photoUrl: "https://lh3.googleusercontent.com/a/photo",
      createdAt: "1700000000000",
      providerUserInfo: [{ providerId: "google.com", rawId: googleId, federatedId: googleId, email: `google-${run}@gmail.com` }],
    };
    users.apple = {
      localId: uid(),
      email: `apple-${run}@privaterelay.appleid.com`,
      emailVerified: true,
      createdAt: "1700000000000",
      providerUserInfo: [{ providerId: "apple.com", rawId: `000123.${run}.0456`, email: `apple-${run}@privaterelay.appleid.com` }],
    };
    const phone = number();
    users.phone = { localId: uid(), phoneNumber: phone, createdAt: "1700000000000", providerUserInfo: [{ providerId: "phone", rawId: phone, phoneNumber: phone }] };
    users.line = {
      localId: uid(),
      email: `line-${run}@example.tw`,
      emailVerified: true,
      createdAt: "1700000000000",
      providerUserInfo: [{ providerId: "oidc.line", rawId: `U${run}`, email: `line-${run}@example.tw` }],
    };
    users.guest = { localId: uid(), createdAt: "1700000000000" };
  });
  afterAll(async () => {
    await server.close();
  });

  const db = () => server.service.database.db;
  const signIn = (client: AuthTestClient, email: string, typed = password) => client.post("/sign-in/email", { email, password: typed });
  const credential = (userId: string) => db().selectFrom("account").select("password").where("userId", "=", userId).where("providerId", "=", "credential").executeTakeFirst();

  it("refuses a cut-off file and wrong hash parameters before writing anything", async () => {
    const text = exportText();
    await expect(importFirebaseUsers(server.service.database, text.slice(0, text.length - 40), { parameters })).rejects.toThrow(ExportFileError);
    await expect(importFirebaseUsers(server.service.database, text, { parameters: { ...parameters, memCost: 20 } })).rejects.toThrow(/--mem-cost/);
    await expect(
      importFirebaseUsers(server.service.database, text, { parameters: { ...parameters, saltSeparator: "Bg==" }, checkPassword: `parent-${run}@example.tw:${password}` }),
    ).rejects.toThrow(ImportRefused);
    await expect(importFirebaseUsers(server.service.database, text, {})).rejects.toThrow(/--hash-key/);
    expect(await db().selectFrom("user").select("id").where("id", "in", Object.values(users).map((u) => String(u.localId))).execute()).toEqual([]);
    expect(await db().selectFrom("firebase_hash_parameters").selectAll().execute()).toEqual([]);
  });

  it("a dry run reports what it would do and writes nothing", async () => {
    const summary = await importFirebaseUsers(server.service.database, exportText(), { parameters, dryRun: true, checkPassword: `parent-${run}@example.tw:${password}` });
    expect(summary).toMatchObject({ total: 8, imported: 8, updated: 0, unchanged: 0, skipped: [] });
    expect(await db().selectFrom("user").select("id").where("id", "=", String(users.parent!.localId)).execute()).toEqual([]);
  });

  it("imports every kind of account under its Firebase uid", async () => {
    const progress: number[] = [];
    const summary = await importFirebaseUsers(server.service.database, exportText(), { parameters, checkPassword: `parent-${run}@example.tw:${password}`, batchSize: 3, progress: (done) => progress.push(done) });
    expect(summary).toMatchObject({ total: 8, imported: 8, skipped: [] });
    expect(progress.at(-1)).toBe(8);
    const rows = await db().selectFrom("user").selectAll().where("id", "in", Object.values(users).map((u) => String(u.localId))).execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.size).toBe(8);
    expect(byId.get(String(users.parent!.localId))).toMatchObject({ email: `parent-${run}@example.tw`, name: "林媽媽" });
    expect(new Date(byId.get(String(users.parent!.localId))!.createdAt).getTime()).toBe(1700000000000);
    expect(Boolean(byId.get(String(users.guest!.localId))!.isAnonymous)).toBe(true);
    expect(byId.get(String(users.phone!.localId))).toMatchObject({ phoneNumber: users.phone!.phoneNumber });
    expect(byId.get(String(users.disabled!.localId))!.lockedAt).toBeTruthy();
    expect(byId.get(String(users.google!.localId))!.image).toBe("https://lh3.googleusercontent.com/a/photo");
    const accounts = await db().selectFrom("account").select(["userId", "providerId", "accountId"]).where("userId", "in", [String(users.google!.localId), String(users.apple!.localId), String(users.line!.localId)]).execute();
    expect(accounts).toEqual(
      expect.arrayContaining([
        { userId: users.google!.localId, providerId: "google", accountId: (users.google!.providerUserInfo as { rawId: string }[])[0]!.rawId },
        { userId: users.apple!.localId, providerId: "apple", accountId: `000123.${run}.0456` },
        { userId: users.line!.localId, providerId: "line", accountId: `U${run}` },
      ]),
    );
    // No password is kept in the clear, and the hash waits in Firebase's form.
    expect((await credential(String(users.parent!.localId)))?.password).toMatch(/^\$firebase-scrypt\$/);
  });

  it("the Firebase password signs in on the same uid, then is rehashed with argon2id and the old hash is gone (counted in /metrics)", async () => {
    const before = { verified: await metric("site_firebase_passwords_total", "verified"), refused: await metric("site_firebase_passwords_total", "refused"), rehashed: await metric("site_firebase_passwords_total", "rehashed") };
    const client = server.client();
    expect((await signIn(client, `parent-${run}@example.tw`, "wrong-password-1")).status).toBe(401);
    expect((await credential(String(users.parent!.localId)))?.password).toMatch(/^\$firebase-scrypt\$/);
    const answer = await signIn(client, `parent-${run}@example.tw`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect((await client.me())?.uid).toBe(users.parent!.localId);
    const stored = (await credential(String(users.parent!.localId)))?.password ?? "";
    expect(stored).toMatch(/^\$argon2id\$/);
    expect(stored).not.toContain(String(users.parent!.passwordHash));
    // And the new hash keeps working.
    expect((await signIn(server.client(), `parent-${run}@example.tw`)).status).toBe(200);
    // One wrong Firebase password, one verified and rehashed; the argon2id sign-in after is not Firebase's.
    expect({
      verified: (await metric("site_firebase_passwords_total", "verified")) - before.verified,
      refused: (await metric("site_firebase_passwords_total", "refused")) - before.refused,
      rehashed: (await metric("site_firebase_passwords_total", "rehashed")) - before.rehashed,
    }).toEqual({ verified: 1, refused: 1, rehashed: 1 });
  });

  it("an unverified address still has to be verified, and a disabled account stays disabled", async () => {
    const unverified = await signIn(server.client(), `unverified-${run}@example.tw`);
    expect(unverified).toMatchObject({ status: 403, body: { code: "email-not-verified" } });
    const disabled = await signIn(server.client(), `disabled-${run}@example.tw`);
    expect(disabled).toMatchObject({ status: 403, body: { code: "auth/user-disabled" } });
  });

  it("the phone-only parent signs in by texted code on the same uid", async () => {
    const client = server.client();
    const e164 = String(users.phone!.phoneNumber);
    expect((await client.post("/phone-number/send-otp", { phoneNumber: e164 })).status).toBe(200);
    let code = "";
    for (let attempt = 0; attempt < 100 && !code; attempt += 1) {
      const text = await db().selectFrom("dev_mail").select("text").where("recipient", "=", e164).orderBy("created_at", "desc").executeTakeFirst();
      code = /(\d{6})/.exec(text?.text ?? "")?.[1] ?? "";
      if (!code) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const verified = await client.post("/phone-number/verify", { phoneNumber: e164, code });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect((await client.me())?.uid).toBe(users.phone!.localId);
  });

  it("a second import of the same file changes nothing and says so", async () => {
    const summary = await importFirebaseUsers(server.service.database, exportText(), { parameters });
    expect(summary).toMatchObject({ total: 8, imported: 0, updated: 0, unchanged: 8, skipped: [] });
  });

  it("a newer export updates what changed and never overwrites a rehashed password", async () => {
    const stored = (await credential(String(users.parent!.localId)))?.password;
    const salt = randomBytes(12).toString("base64");
    users.parent = { ...users.parent, displayName: "林媽媽（新）", salt, passwordHash: await firebaseScryptHash("older-password-9", salt, parameters) };
    users.unverified = { ...users.unverified, displayName: "還沒驗證" };
    const summary = await importFirebaseUsers(server.service.database, exportText(), { parameters });
    expect(summary).toMatchObject({ imported: 0, updated: 2, unchanged: 6 });
    expect((await credential(String(users.parent!.localId)))?.password).toBe(stored);
    expect(await db().selectFrom("user").select("name").where("id", "=", String(users.parent!.localId)).executeTakeFirst()).toEqual({ name: "林媽媽（新）" });
    expect((await signIn(server.client(), `parent-${run}@example.tw`)).status).toBe(200);
  });

  it("reports duplicates, malformed entries and accounts that exist here, and imports the rest", async () => {
    const shared = `shared-${run}@example.tw`;
    const first = await passwordUser(shared, password);
    const second = await passwordUser(shared.toUpperCase(), password);
    const malformed = { localId: uid(), email: "no at sign" };
    const taken = await passwordUser(`parent-${run}@example.tw`, password);
    const fine = await passwordUser(`fine-${run}@example.tw`, password);
    const summary = await importFirebaseUsers(server.service.database, JSON.stringify({ users: [first, second, malformed, taken, fine] }), { parameters });
    expect(summary.imported).toBe(1);
    expect(summary.skipped.map((entry) => entry.uid).sort()).toEqual([first.localId, second.localId, malformed.localId, taken.localId].sort());
    expect(summary.skipped.find((entry) => entry.uid === taken.localId)?.reason).toMatch(/已屬於另一個帳號/);
    expect(await db().selectFrom("user").select("id").where("email", "=", shared).execute()).toEqual([]);
  });

  it("a run stopped between batches leaves whole batches, and the next run finishes it", async () => {
    const batch = await Promise.all([1, 2, 3, 4, 5].map((n) => passwordUser(`batch${n}-${run}@example.tw`, password)));
    const text = JSON.stringify({ users: batch });
    let calls = 0;
    await expect(
      importFirebaseUsers(server.service.database, text, {
        parameters,
        batchSize: 2,
        progress: () => {
          calls += 1;
          if (calls === 2) throw new Error("stopped");
        },
      }),
    ).rejects.toThrow("stopped");
    const written = await db().selectFrom("user").select("id").where("id", "in", batch.map((u) => u.localId)).execute();
    expect(written).toHaveLength(2);
    expect(await importFirebaseUsers(server.service.database, text, { parameters })).toMatchObject({ imported: 3, unchanged: 2 });
  });
});
