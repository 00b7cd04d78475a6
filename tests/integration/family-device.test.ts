import { randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import { Hono } from "hono";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as oidc from "openid-client";
import { createAppSignIn } from "~/features/app-sign-in/app-sign-in.server";
import { familyApi } from "~/features/family/family-api.server";
import { createStorage } from "~/features/storage/storage.server";
import { childDevicesFor, endChildDevice } from "~/features/family/family-devices.server";
import { FamilyRefusal, leaveFamily, removeChild } from "~/features/family/family-store.server";
import { runOperatorAction } from "~/features/admin/operator-actions.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { discoverProvider, refresh, userInfo } from "~tests/fixtures/reference-client";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";
import { familyWithChild, signedUpAccount, tabletApp, testBrand as brand } from "./factories";
import { multipart, png } from "./storage-fixtures";

const phoneApp = { client_id: "app", client_name: "任務小勇士 App", redirect_uris: ["tw.example.app:/callback"], public: true, first_party: true };

/**
 * A child's tablet joins by QR code (PRODUCT §5, Families; RFC 8628), driven by openid-client as the tablet: the
 * parent approves at /device for one child; the tablet's tokens are the child's, carry the family and the child,
 * and are refused by storage; ending the tablet on the parent's devices list ends its refresh.
 */
describeEachDatabase("a child's tablet (device grant)", (database) => {
  let server: AuthTestServer;
  let tablet: oidc.Configuration;

  beforeAll(async () => {
    server = await startAuthServer(
      database(),
      { DATA_DIR: database().dataDir, OIDC_CLIENTS: JSON.stringify([tabletApp, phoneApp]) },
      {
        routes: (service) => {
          const appSignIn = createAppSignIn({ authService: service });
          return new Hono()
            .route("/", appSignIn.routes)
            .route("/", familyApi({ db: database().handle.db, appTokenUser: appSignIn.accessTokenAccount }))
            .route("/", createStorage({ env: service.env, database: database().handle, authService: service, appTokenUser: appSignIn.accessTokenUser }).routes);
        },
      },
    );
    tablet = await discoverProvider({ issuer: server.baseURL, clientId: "tablet" });
  });
  afterAll(async () => {
    await server.close();
  });

  async function parentWithChild() {
    const { client, email, id } = await signedUpAccount(server, { prefix: "device", name: "小明媽媽" });
    const parent = { id };
    // A verified address, so the parent is mailed when the tablet joins.
    await database().handle.db.updateTable("user").set({ emailVerified: 1 }).where("id", "=", parent.id).execute();
    return { client, email, parent, ...(await familyWithChild(database().handle.db, parent, { brand })) };
  }

  const page = async (client: AuthTestClient, path: string) => {
    const answer = await fetch(`${server.baseURL}${path}`, { headers: { cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ") } });
    return { status: answer.status, html: await answer.text() };
  };
  const approve = async (client: AuthTestClient, userCode: string, child: string) => {
    const answer = await fetch(`${server.baseURL}/device`, {
      method: "POST",
      headers: { origin: server.baseURL, "content-type": "application/x-www-form-urlencoded", cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
      body: new URLSearchParams({ user_code: userCode, child }).toString(),
    });
    return { status: answer.status, html: await answer.text() };
  };

  it("joins a tablet for the child the parent picks: the child's tokens, family and child claims, no storage", async () => {
    const { client, email, familyId, childId } = await parentWithChild();
    const started = await oidc.initiateDeviceAuthorization(tablet, { scope: "openid profile email offline_access" });
    expect(started.verification_uri).toBe(`${server.baseURL}/device`);
    expect(started.verification_uri_complete).toBe(`${server.baseURL}/device?user_code=${encodeURIComponent(started.user_code)}`);

    // Signed out, the page sends the parent to sign in and back; typed in lower case, the code still works.
    expect((await page(server.client(), `/device?user_code=${started.user_code}`)).html).toContain(`/login?redirectTo=${encodeURIComponent(`/device?user_code=${started.user_code}`)}`);
    const picker = await page(client, `/device?user_code=${started.user_code.toLowerCase()}`);
    expect(picker.html).toContain("小明（2019 年生）");
    // The code in the one form the tablet shows (ABCD-EFGH), typed with or without the dash, in either case.
    expect(started.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(picker.html).toContain(`顯示代碼 <strong>${started.user_code}</strong>`);
    const undashed = await page(client, `/device?user_code=${started.user_code.replace("-", "").toLowerCase()}`);
    expect(undashed.html).toContain(`顯示代碼 <strong>${started.user_code}</strong>`);
    expect((await approve(server.client(), started.user_code, childId)).status).toBe(403);
    expect((await approve(client, started.user_code, randomUUID())).status).toBe(404);
    const approved = await approve(client, started.user_code, childId);
    expect(approved.html).toContain("「小明」的平板已加入家庭");
    expect((await approve(client, started.user_code, childId)).status).toBe(404);
    expect((await server.latestMail(email, /平板加入了家庭/)).text).toContain("「小明」的平板加入了家庭「王家」");

    const tokens = await oidc.pollDeviceAuthorizationGrant(tablet, started);
    const idToken = decodeJwt(tokens.id_token!);
    expect(idToken.sub).toBe(childId);
    expect(idToken.family).toEqual({ id: familyId, name: "王家", role: "child" });
    expect(idToken.child).toEqual({ id: childId, name: "小明", avatar: "lion", birthYear: 2019 });
    expect(idToken.email).toBeUndefined();
    // Its sign-in has a `sid` like every other (what a back-channel logout names); no one signed in on it: no acr.
    expect(typeof idToken.sid).toBe("string");
    expect(idToken.acr).toBeUndefined();
    expect(tokens.scope?.split(" ").sort()).toEqual(["offline_access", "openid", "profile"]);

    expect((await userInfo(tablet, tokens.access_token, childId)).child).toEqual(idToken.child);

    // Without the family scope the tablet's token does not read the family.
    expect((await fetch(`${server.baseURL}/api/family`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(403);

    // Storage of a parent's files refuses the child's token.
    const objectPath = `users/${childId}/photo.png`;
    const { body, headers } = multipart(objectPath, await png());
    const upload = await fetch(`${server.baseURL}/v0/b/default/o?name=${encodeURIComponent(objectPath)}`, { method: "POST", headers: { ...headers, authorization: `Bearer ${tokens.access_token}` }, body });
    expect([401, 403]).toContain(upload.status);

    // The tablet is on the parent's devices list; ending it there ends its refresh.
    const sessions = await database().handle.db.selectFrom("session").select(["id", "userAgent"]).where("userAgent", "like", "小明的平板%").execute();
    expect(sessions).toHaveLength(1);
    const renewed = await refresh(tablet, tokens.refresh_token!);
    await database().handle.db.deleteFrom("session").where("id", "=", sessions[0]!.id).execute();
    await expect(refresh(tablet, renewed.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });

    // Asked for, the family scope is a child device's too: the family, without any parent's address.
    const withFamily = await joinTablet(client, childId, "openid profile family");
    expect(withFamily.scope?.split(" ").sort()).toEqual(["family", "openid", "profile"]);
    const family = (await (await fetch(`${server.baseURL}/api/family`, { headers: { authorization: `Bearer ${withFamily.access_token}` } })).json()) as { family: Record<string, unknown> };
    expect(family.family).toMatchObject({ id: familyId, role: "child", child: { id: childId }, parents: [{ name: "小明媽媽", role: "owner" }] });
    expect(JSON.stringify(family)).not.toContain("@example.tw");
  }, 30_000);

  /** A tablet joined for the child, approved by `client`: the tablet's tokens. */
  async function joinTablet(client: AuthTestClient, childId: string, scope = "openid profile offline_access") {
    const started = await oidc.initiateDeviceAuthorization(tablet, { scope });
    expect((await approve(client, started.user_code, childId)).status).toBe(200);
    return oidc.pollDeviceAuthorizationGrant(tablet, started);
  }
  const liveSession = async (id: string) => Boolean(await database().handle.db.selectFrom("session").select("id").where("id", "=", id).executeTakeFirst());

  it("shows each child's tablet to every parent of the family, and any of them can end it on every request at once", async () => {
    const { client, parent, familyId, childId } = await parentWithChild();
    const coParent = (await server.client().post<{ user: { id: string } }>("/sign-up/email", { email: `co-${randomUUID().slice(0, 8)}@example.tw`, password: "kite-river-7", name: "小明爸爸" })).body.user;
    await database().handle.db.insertInto("family_member").values({ user_id: coParent.id, family_id: familyId, role: "parent", joined_at: new Date().toISOString() }).execute();
    const tokens = await joinTablet(client, childId);

    const seenByCoParent = await childDevicesFor(database().handle.db, coParent.id);
    expect(seenByCoParent).toEqual([{ id: expect.any(String), childName: "小明", appName: "小明的平板・任務小勇士平板", approvedBy: "小明媽媽", joinedAt: expect.any(String) }]);
    expect(await childDevicesFor(database().handle.db, parent.id)).toEqual(seenByCoParent);
    const deviceId = seenByCoParent[0]!.id;

    // A parent of another family can neither see nor end it.
    const stranger = await parentWithChild();
    expect(await childDevicesFor(database().handle.db, stranger.parent.id)).toEqual([]);
    await expect(endChildDevice(database().handle.db, brand, stranger.parent, deviceId)).rejects.toBeInstanceOf(FamilyRefusal);
    expect(await liveSession(deviceId)).toBe(true);

    // The co-parent, who did not approve it, ends it: the refresh is refused at once and the list is empty.
    await endChildDevice(database().handle.db, brand, coParent, deviceId);
    await expect(refresh(tablet, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    expect(await childDevicesFor(database().handle.db, parent.id)).toEqual([]);
  }, 30_000);

  /** A co-parent who signed up (a browser session of their own) and joined the family. */
  async function coParentOf(familyId: string) {
    const { client, id } = await signedUpAccount(server, { prefix: "co", name: "小明爸爸" });
    await database().handle.db.insertInto("family_member").values({ user_id: id, family_id: familyId, role: "parent", joined_at: new Date().toISOString() }).execute();
    return { client, id };
  }
  const lock = async (id: string, email: string) =>
    runOperatorAction(server.service, { id, email, emailVerified: 1, phoneNumber: null }, { intent: "lock", reason: "家長來信說帳號被盜" }, { operatorId: "operator", ip: null, userAgent: null });

  it("locking a parent ends the tablets that parent approved; a co-parent's tablet keeps working (decision 621)", async () => {
    const { client, email, parent, familyId, childId } = await parentWithChild();
    const coParent = await coParentOf(familyId);
    const mothers = await joinTablet(client, childId);
    const fathers = await joinTablet(coParent.client, childId);

    expect(await lock(parent.id, email)).toMatchObject({ notice: expect.stringContaining("帳號已停用") });
    await expect(refresh(tablet, mothers.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    expect((await refresh(tablet, fathers.refresh_token!)).access_token).toBeTruthy();
    expect((await childDevicesFor(database().handle.db, coParent.id)).map((device) => device.approvedBy)).toEqual(["小明爸爸"]);
  }, 30_000);

  it("locking the family's only parent left ends every tablet of the family, even one a parent who left approved", async () => {
    const { email, parent, familyId, childId } = await parentWithChild();
    const coParent = await coParentOf(familyId);
    const fathers = await joinTablet(coParent.client, childId);
    expect(await leaveFamily(database().handle.db, brand, coParent)).toBe("left");
    // The tablet stays the family's after its approver left: the remaining parent sees it.
    expect(await childDevicesFor(database().handle.db, parent.id)).toHaveLength(1);

    expect(await lock(parent.id, email)).toMatchObject({ notice: expect.stringMatching(/結束 2 個登入/) });
    await expect(refresh(tablet, fathers.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    expect(await childDevicesFor(database().handle.db, parent.id)).toEqual([]);
  }, 30_000);

  it("removing a child ends its tablets' grants at once", async () => {
    const { client, parent, childId } = await parentWithChild();
    const tokens = await joinTablet(client, childId);
    const [device] = await childDevicesFor(database().handle.db, parent.id);
    expect(await liveSession(device!.id)).toBe(true);
    await removeChild(database().handle.db, brand, parent, childId);
    // The grant's session row is gone in the removal's own transaction, not left to fail on a missing account.
    expect(await liveSession(device!.id)).toBe(false);
    await expect(refresh(tablet, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  }, 30_000);

  it("refuses the device grant to an app whose entry does not list it", async () => {
    const phone = await discoverProvider({ issuer: server.baseURL, clientId: "app" });
    await expect(oidc.initiateDeviceAuthorization(phone, { scope: "openid" })).rejects.toMatchObject({ error: "invalid_request", error_description: expect.stringContaining("device_code is not allowed for this client") });
  });
});
