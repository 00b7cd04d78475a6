import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { consoleParent, consoleParentAction, consoleSearch } from "~/features/admin/operator-console.server";
import { setUserRole } from "~/features/auth/index.server";
import { phoneAccountEmail } from "~/features/auth";
import { addChild, createFamily } from "~/features/family/family-store.server";
import { authenticatorApp } from "~tests/helpers/authenticator-app";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";
import { verifiedAccount as createVerifiedAccount } from "./factories";

const password = "compass-meadow-58";
const tokenFrom = (link: string) => new URL(link).searchParams.get("token") ?? "";

// Item 3 of the operator's side: the console opens only for an admin with a second factor and a recent sign-in;
// every action lands in the record; a locked account gets no session by any way in.
describeEachDatabase("operator console", (database) => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthServer(database());
  });
  afterAll(async () => {
    await server.close();
  });
  const db = () => database().handle.db;

  const verifiedAccount = (name = "家長") => createVerifiedAccount(server, { prefix: "console", name, password });
  /** A page request carrying the client's cookies and address, as the site's routes get it. */
  const pageRequest = (client: AuthTestClient, path: string, form?: Record<string, string>) =>
    new Request(`${server.baseURL}${path}`, {
      method: form ? "POST" : "GET",
      headers: {
        cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
        "x-client-ip": client.ip,
        "user-agent": "operator-test",
        ...(form ? { "content-type": "application/x-www-form-urlencoded", origin: server.baseURL } : {}),
      },
      body: form ? new URLSearchParams(form) : undefined,
    });
  const addPasskey = (userId: string) =>
    db()
      .insertInto("passkey")
      .values({ id: randomUUID(), user_id: userId, name: "測試金鑰", credential_id: randomUUID(), public_key: "AA", counter: 0, transports: "", backed_up: 0, created_at: new Date().toISOString(), last_used_at: null })
      .execute();
  /** The admin's session as a passkey sign-in leaves it (ways-in/passkey/passkey.server.ts: `passkeyAmr`). */
  const signedInWithPasskey = (userId: string) => db().updateTable("session").set({ amr: "swk user mfa" }).where("userId", "=", userId).execute();
  const stateOf = (answer: unknown) => (answer as { data: { state?: string } }).data.state;
  const statusOf = (answer: unknown) => (answer as { init: { status?: number } | null }).init?.status ?? 200;

  it("answers 404 to a parent and an editor, asks an admin for a second factor, then for a recent sign-in", async () => {
    const parent = await verifiedAccount();
    const editor = await verifiedAccount();
    await setUserRole(database().handle, editor.email, "editor");
    for (const visitor of [parent, editor]) {
      const search = await consoleSearch(pageRequest(visitor.client, "/admin"), server.service);
      expect([statusOf(search), stateOf(search)]).toEqual([404, "not-found"]);
      const action = await consoleParentAction(pageRequest(visitor.client, `/admin/users/${parent.id}`, { intent: "lock", reason: "試試看" }), parent.id, server.service);
      expect(statusOf(action)).toBe(404);
    }
    expect((await db().selectFrom("user").select("lockedAt").where("id", "=", parent.id).executeTakeFirstOrThrow()).lockedAt ?? null).toBeNull();

    const admin = await verifiedAccount("客服小美");
    await setUserRole(database().handle, admin.email, "admin");
    const noFactor = await consoleParentAction(pageRequest(admin.client, `/admin/users/${parent.id}`, { intent: "lock", reason: "家長來信" }), parent.id, server.service);
    expect(statusOf(noFactor)).toBe(403);
    expect(stateOf(await consoleSearch(pageRequest(admin.client, "/admin"), server.service))).toBe("needs-second-factor");

    await addPasskey(admin.id);
    // A passkey on the account is not enough: this session was made by the password alone.
    expect(stateOf(await consoleSearch(pageRequest(admin.client, "/admin"), server.service))).toBe("needs-step-up");
    await signedInWithPasskey(admin.id);
    const search = await consoleSearch(pageRequest(admin.client, `/admin?q=${encodeURIComponent(parent.email.toUpperCase())}`), server.service);
    expect(stateOf(search)).toBe("open");
    expect((search as { data: { results: { id: string }[] } }).data.results.map((row) => row.id)).toEqual([parent.id]);

    // Eleven minutes after sign-in the console asks again, like every sensitive change.
    const eleven = new Date(Date.now() - 11 * 60_000);
    await db().updateTable("session").set({ createdAt: database().handle.dialect === "postgres" ? eleven : eleven.toISOString() }).where("userId", "=", admin.id).execute();
    const stale = await consoleParentAction(pageRequest(admin.client, `/admin/users/${parent.id}`, { intent: "lock", reason: "家長來信" }), parent.id, server.service);
    expect(statusOf(stale)).toBe(403);
    expect((stale as { data: { code: string } }).data.code).toBe("auth/requires-recent-login");
    const confirm = await consoleParent(pageRequest(admin.client, `/admin/users/${parent.id}`), parent.id, server.service);
    expect(confirm).toMatchObject({ data: { state: "needs-confirmation", confirmHref: `/account/confirm-identity?redirectTo=%2Fadmin%2Fusers%2F${parent.id}&proof=two-step` } });
    expect((await db().selectFrom("user").select("lockedAt").where("id", "=", parent.id).executeTakeFirstOrThrow()).lockedAt ?? null).toBeNull();
  });

  it("asks an admin signed in by password alone (two-step on the account) for the step-up at /admin and at every action, then opens", async () => {
    const parent = await verifiedAccount();
    const admin = await verifiedAccount("客服阿哲");
    await setUserRole(database().handle, admin.email, "admin");
    const enabled = await admin.client.post<{ totpURI: string }>("/two-factor/enable", { password });
    const authenticator = authenticatorApp(enabled.body.totpURI);
    expect((await admin.client.post("/two-factor/verify-totp", { code: await authenticator() })).status).toBe(200);
    // A trusted device: the next password sign-in asks for no code, so its session proves the password only.
    const browser = server.client();
    await browser.post("/sign-in/email", { email: admin.email, password });
    expect((await browser.post("/two-factor/verify-totp", { code: await authenticator(), trustDevice: true })).status).toBe(200);
    expect((await browser.post("/sign-out")).status).toBe(200);
    expect((await browser.post("/sign-in/email", { email: admin.email, password })).body).not.toMatchObject({ twoFactorRedirect: true });
    const amr = await db().selectFrom("session").select("amr").where("userId", "=", admin.id).orderBy("createdAt", "desc").executeTakeFirstOrThrow();
    expect(amr.amr).toBe("pwd");

    const stepUp = "/account/confirm-identity?redirectTo=%2Fadmin&proof=two-step";
    expect(await consoleSearch(pageRequest(browser, "/admin"), server.service)).toMatchObject({ data: { state: "needs-step-up", confirmHref: stepUp }, init: { status: 403 } });
    expect(stateOf(await consoleParent(pageRequest(browser, `/admin/users/${parent.id}`), parent.id, server.service))).toBe("needs-step-up");
    const actions: Record<string, string>[] = [
      { intent: "resend-verification" },
      { intent: "sign-out-everywhere" },
      { intent: "lock" },
      { intent: "unlock" },
      { intent: "set-role", role: "admin" },
      { intent: "delete", confirmAccount: parent.email },
    ];
    for (const form of actions) {
      const refused = await consoleParentAction(pageRequest(browser, `/admin/users/${parent.id}`, { ...form, reason: "家長來信" }), parent.id, server.service);
      expect([form.intent, statusOf(refused), (refused as { data: { code?: string } }).data.code]).toEqual([form.intent, 403, "admin/step-up-required"]);
    }
    const target = await db().selectFrom("user").select(["role", "lockedAt"]).where("id", "=", parent.id).executeTakeFirstOrThrow();
    expect([target.role, target.lockedAt ?? null]).toEqual(["user", null]);
    expect(await parent.client.me()).not.toBeNull();

    // The step-up: the code typed on confirm-identity while signed in renews the session as a two-step one.
    expect((await browser.post("/two-factor/verify-totp", { code: await authenticator() })).status).toBe(200);
    expect(stateOf(await consoleSearch(pageRequest(browser, "/admin"), server.service))).toBe("open");
    const locked = await consoleParentAction(pageRequest(browser, `/admin/users/${parent.id}`, { intent: "lock", reason: "家長來信說帳號被盜" }), parent.id, server.service);
    expect(locked).toMatchObject({ data: { done: true, intent: "lock" } });
  });

  it("locks an account: every session ends, no way in signs it in, and each step is recorded with its reason", async () => {
    const admin = await verifiedAccount("客服");
    await setUserRole(database().handle, admin.email, "admin");
    await addPasskey(admin.id);
    await signedInWithPasskey(admin.id);
    const parent = await verifiedAccount();
    expect(await parent.client.me()).not.toBeNull();

    const act = (form: Record<string, string>) => consoleParentAction(pageRequest(admin.client, `/admin/users/${parent.id}`, form), parent.id, server.service);
    const missingReason = await act({ intent: "lock", reason: "" });
    expect(statusOf(missingReason)).toBe(400);
    expect(await parent.client.me()).not.toBeNull();

    const locked = await act({ intent: "lock", reason: "家長來信說帳號被盜" });
    expect(locked).toMatchObject({ data: { done: true, intent: "lock" } });
    expect(await parent.client.me()).toBeNull();

    const byPassword = await server.client().post("/sign-in/email", { email: parent.email, password });
    expect(byPassword).toMatchObject({ status: 403, body: { code: "auth/user-disabled", message: `這個帳號已暫停使用，請寫信到 ${server.service.env.SUPPORT_EMAIL}` } });
    expect((await server.client().post("/email-link/request", { email: parent.email })).status).toBe(200);
    const mail = await server.latestMail(parent.email, /登入連結/);
    const token = tokenFrom(mail.links.find((candidate) => candidate.includes("/login/email-link")) ?? "");
    const byLink = await server.client().post("/email-link/sign-in", { token });
    expect(byLink).toMatchObject({ status: 403, body: { code: "auth/user-disabled" } });
    expect(await db().selectFrom("session").select("id").where("userId", "=", parent.id).execute()).toEqual([]);

    expect(await act({ intent: "unlock", reason: "家長已確認身分" })).toMatchObject({ data: { done: true } });
    expect((await server.client().post("/sign-in/email", { email: parent.email, password })).status).toBe(200);

    const file = await consoleParent(pageRequest(admin.client, `/admin/users/${parent.id}`), parent.id, server.service);
    const record = (file as { data: { record: { what: string; reason: string | null; byOperator: boolean }[] } }).data.record;
    const operatorLines = record.filter((line) => line.byOperator).map((line) => [line.what, line.reason]);
    expect(operatorLines).toEqual([
      ["客服恢復帳號", "家長已確認身分"],
      ["客服停用帳號", "家長來信說帳號被盜"],
    ]);
    const rows = await db().selectFrom("security_record").select(["event", "actor_id", "code"]).where("user_id", "=", parent.id).execute();
    expect(rows.filter((row) => row.event === "admin-lock")).toEqual([{ event: "admin-lock", actor_id: admin.id, code: null }]);
    // Opening the file is recorded too (after it was read, so it shows from the next look on).
    expect(rows.filter((row) => row.event === "admin-lookup")).toEqual([{ event: "admin-lookup", actor_id: admin.id, code: null }]);
    expect(rows.filter((row) => row.event === "sign-in" && row.code === "ACCOUNT_LOCKED")).toHaveLength(1);
  });

  it("resends the verification mail, sets a role and deletes an account, keeping its record", async () => {
    const admin = await verifiedAccount("客服");
    await setUserRole(database().handle, admin.email, "admin");
    await addPasskey(admin.id);
    await signedInWithPasskey(admin.id);
    const email = `unverified-${randomUUID().slice(0, 8)}@example.tw`;
    expect((await server.client().post("/sign-up/email", { email, password, name: "新家長" })).status).toBe(200);
    const { id } = await db().selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const act = (form: Record<string, string>) => consoleParentAction(pageRequest(admin.client, `/admin/users/${id}`, form), id, server.service);

    const before = (await db().selectFrom("mail_outbox").select("id").where("recipient", "=", email).execute()).length;
    expect(await act({ intent: "resend-verification", reason: "家長說收不到驗證信" })).toMatchObject({ data: { done: true } });
    expect((await db().selectFrom("mail_outbox").select("id").where("recipient", "=", email).execute()).length).toBe(before + 1);

    expect(await act({ intent: "set-role", reason: "新進編輯", role: "editor" })).toMatchObject({ data: { done: true } });
    expect((await db().selectFrom("user").select("role").where("id", "=", id).executeTakeFirstOrThrow()).role).toBe("editor");

    const wrongEmail = await act({ intent: "delete", reason: "家長要求刪除", confirmAccount: "someone@example.tw" });
    expect(statusOf(wrongEmail)).toBe(400);
    const deleted = await act({ intent: "delete", reason: "家長要求刪除", confirmAccount: email });
    expect((deleted as Response).status).toBe(302);
    expect(await db().selectFrom("user").select("id").where("id", "=", id).executeTakeFirst()).toBeUndefined();
    const events = (await db().selectFrom("security_record").select("event").where("user_id", "=", id).orderBy("seq").execute()).map((row) => row.event);
    expect(events).toEqual(["sign-up", "admin-resend-verification", "admin-set-role", "admin-delete"]);
  });

  it("names a phone account by its number, never its placeholder address: search, file, no verification mail, deletion by the number", async () => {
    const admin = await verifiedAccount("客服");
    await setUserRole(database().handle, admin.email, "admin");
    await addPasskey(admin.id);
    await signedInWithPasskey(admin.id);
    const digits = String(Math.floor(Math.random() * 1e8)).padStart(8, "0");
    const id = `phone-${randomUUID().slice(0, 8)}`;
    const now = new Date();
    const stamp = database().handle.dialect === "postgres" ? now : now.toISOString();
    await db()
      .insertInto("user")
      .values({ id, name: "手機家長", email: phoneAccountEmail(`+8869${digits}`), emailVerified: 0, phoneNumber: `+8869${digits}`, phoneNumberVerified: 1, createdAt: stamp, updatedAt: stamp } as never)
      .execute();
    const typed = `09${digits.slice(0, 2)}-${digits.slice(2, 5)}-${digits.slice(5)}`;

    const search = await consoleSearch(pageRequest(admin.client, `/admin?q=${encodeURIComponent(typed)}`), server.service);
    expect((search as { data: { results: { id: string; label: string }[] } }).data.results).toMatchObject([{ id, label: typed }]);
    const file = (await consoleParent(pageRequest(admin.client, `/admin/users/${id}`), id, server.service)) as { data: { parent: { label: string; hasEmail: boolean } } };
    expect(file.data.parent).toMatchObject({ label: typed, hasEmail: false });

    const act = (form: Record<string, string>) => consoleParentAction(pageRequest(admin.client, `/admin/users/${id}`, form), id, server.service);
    const resend = await act({ intent: "resend-verification", reason: "家長說收不到驗證信" });
    expect(statusOf(resend)).toBe(400);
    expect(JSON.stringify(resend)).toContain("這個帳號沒有電子郵件");
    const byPlaceholder = await act({ intent: "delete", reason: "家長要求刪除", confirmAccount: phoneAccountEmail(`+8869${digits}`) });
    expect(statusOf(byPlaceholder)).toBe(400);
    expect(JSON.stringify(byPlaceholder)).toContain(`請輸入「${typed}」`);
    const deleted = (await act({ intent: "delete", reason: "家長要求刪除", confirmAccount: `09${digits}` })) as Response;
    expect(deleted.status).toBe(302);
    expect(decodeURIComponent(deleted.headers.get("location") ?? "")).toContain(`deleted=${typed}`);
    expect(await db().selectFrom("user").select("id").where("id", "=", id).executeTakeFirst()).toBeUndefined();
  });

  it("shows the parent's family: its name, the parents (each a link to their file), the children's names, no more", async () => {
    const admin = await verifiedAccount("客服");
    await setUserRole(database().handle, admin.email, "admin");
    await addPasskey(admin.id);
    await signedInWithPasskey(admin.id);
    const mother = await verifiedAccount("小明媽媽");
    const father = await verifiedAccount("小明爸爸");
    const fileOf = async (id: string) =>
      ((await consoleParent(pageRequest(admin.client, `/admin/users/${id}`), id, server.service)) as { data: { family: unknown } }).data.family;
    expect(await fileOf(mother.id)).toBeNull();

    const brand = { productName: "任務小勇士", supportEmail: "support@example.tw", siteUrl: server.baseURL };
    const familyId = await createFamily(db(), brand, mother, "王家");
    await db().insertInto("family_member").values({ user_id: father.id, family_id: familyId, role: "parent", joined_at: new Date().toISOString() }).execute();
    await addChild(db(), brand, mother, { name: "小明", avatar: "lion", birthYear: 2019 }, { ipAddress: "192.0.2.7", userAgent: null });
    const family = await fileOf(father.id);
    expect(family).toEqual({
      name: "王家",
      role: "parent",
      parents: [
        { id: mother.id, name: "小明媽媽", email: mother.email, role: "owner" },
        { id: father.id, name: "小明爸爸", email: father.email, role: "parent" },
      ],
      children: ["小明"],
      tablets: [],
    });
    // Not the child's birth year, avatar or the consent's address: support does not need them.
    expect(JSON.stringify(family)).not.toMatch(/2019|lion|192\.0\.2\.7/);
  });
  it("lists every way in of the parent's file: the password, the phone number and each passkey", async () => {
    const admin = await verifiedAccount("客服");
    await setUserRole(database().handle, admin.email, "admin");
    await addPasskey(admin.id);
    await signedInWithPasskey(admin.id);
    const parent = await verifiedAccount("陳媽媽");
    await db().updateTable("user").set({ phoneNumber: "+886912345678", phoneNumberVerified: database().handle.dialect === "postgres" ? true : 1 } as never).where("id", "=", parent.id).execute();
    await addPasskey(parent.id);
    const file = (await consoleParent(pageRequest(admin.client, `/admin/users/${parent.id}`), parent.id, server.service)) as { data: { waysIn: string[]; passkeys: { name: string }[] } };
    expect(file.data.waysIn).toEqual(["密碼", "手機號碼 0912-345-678"]);
    expect(file.data.passkeys.map((key) => key.name)).toEqual(["測試金鑰"]);
  });
});
