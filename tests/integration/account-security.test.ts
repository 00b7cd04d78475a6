import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type DeviceSession, commonPasswordMessage } from "~/features/auth";
import { endAllSessions, endSessionsOf } from "~/features/auth/index.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";
import { verifiedAccount } from "./factories";

const password = "lantern-harbour-9";
const windowsChrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const iphoneSafari =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

// The account security screen's server side (ASVS 6.2.2, 7.5.2, 7.4.3) and the operator's sign-out (7.4.5).
describeEachDatabase("account security", (database) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    // A small lockout, so the test reaches it in a few tries.
    server = await startAuthServer(database(), { RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT: "3/900" });
  });
  afterAll(async () => {
    await server.close();
  });

  /** A verified account, signed in on one client per User-Agent given (and nowhere else). */
  async function signedInEverywhere(...userAgents: string[]): Promise<{ email: string; clients: AuthTestClient[] }> {
    const { client: signUp, email } = await verifiedAccount(server, { prefix: "security", password });
    expect((await signUp.post("/sign-out")).status).toBe(200);
    const clients = [];
    for (const userAgent of userAgents) {
      const client = server.client({ userAgent });
      expect((await client.post("/sign-in/email", { email, password })).status).toBe(200);
      clients.push(client);
    }
    return { email, clients };
  }
  const sessionToken = (client: AuthTestClient) => {
    const value = [...client.cookies].find(([name]) => name.endsWith("session_token"))?.[1] ?? "";
    return decodeURIComponent(value).split(".")[0] ?? "";
  };
  const devicesOf = async (client: AuthTestClient) => (await client.get<{ devices: DeviceSession[] }>("/devices")).body.devices;

  it("lists the user's own devices in plain words, the current one first, and never a token", async () => {
    const { clients } = await signedInEverywhere(windowsChrome, iphoneSafari);
    const [windows, iphone] = clients as [AuthTestClient, AuthTestClient];
    const answer = await iphone.get<{ devices: DeviceSession[] }>("/devices");
    expect(answer.status).toBe(200);
    const { devices } = answer.body;
    expect(devices.map(({ device, current }) => [device, current])).toEqual([
      ["iPhone（iOS 17.5）上的 Safari 17", true],
      ["Windows 上的 Chrome 126", false],
    ]);
    for (const device of devices) {
      expect(Object.keys(device).sort()).toEqual(["createdAt", "current", "device", "id", "lastActiveAt", "place"]);
      expect(new Date(device.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    }
    const text = JSON.stringify(answer.body);
    for (const client of clients) expect(text).not.toContain(sessionToken(client));
    expect((await windows.get<{ devices: DeviceSession[] }>("/devices")).body.devices[0]).toMatchObject({ device: "Windows 上的 Chrome 126", current: true });
    expect((await server.client().get("/devices")).status).toBe(401);
  });

  it("ends one device by its id, only the caller's own, and only from the site's origin", async () => {
    const { clients } = await signedInEverywhere(windowsChrome, iphoneSafari);
    const [windows, iphone] = clients as [AuthTestClient, AuthTestClient];
    const windowsId = (await devicesOf(windows)).find((device) => device.current)?.id ?? "";
    const stranger = (await signedInEverywhere("")).clients[0] as AuthTestClient;

    // Another account naming this session's id changes nothing; neither does a session token in its place.
    expect((await stranger.post("/devices/end", { id: windowsId })).body).toEqual({ status: true });
    expect((await iphone.post("/devices/end", { id: sessionToken(windows) })).body).toEqual({ status: true });
    expect(await windows.me()).not.toBeNull();

    const foreign = server.client({ origin: "https://evil.example" });
    for (const [name, value] of iphone.cookies) foreign.cookies.set(name, value);
    expect((await foreign.post("/devices/end", { id: windowsId })).status).toBe(403);
    expect(await windows.me()).not.toBeNull();

    expect((await iphone.post("/devices/end", { id: windowsId })).body).toEqual({ status: true });
    expect(await windows.me()).toBeNull();
    expect((await devicesOf(iphone)).map((device) => device.device)).toEqual(["iPhone（iOS 17.5）上的 Safari 17"]);

    // Its own id ends the current session and clears the cookie.
    const ownId = (await devicesOf(iphone))[0]?.id ?? "";
    expect((await iphone.post("/devices/end", { id: ownId })).status).toBe(200);
    expect(sessionToken(iphone)).toBe("");
    expect(await iphone.me()).toBeNull();
  });

  it("ends every other device and keeps this one", async () => {
    const { clients } = await signedInEverywhere(windowsChrome, iphoneSafari, windowsChrome);
    const [first, second, third] = clients as [AuthTestClient, AuthTestClient, AuthTestClient];
    expect((await second.post("/revoke-other-sessions")).status).toBe(200);
    expect(await first.me()).toBeNull();
    expect(await third.me()).toBeNull();
    expect((await devicesOf(second)).map((device) => device.current)).toEqual([true]);
  });

  it("changes the password under the sign-up policy; the old one stops working, other devices are signed out", async () => {
    const { email, clients } = await signedInEverywhere(windowsChrome, iphoneSafari, iphoneSafari);
    const [here, other, kept] = clients as [AuthTestClient, AuthTestClient, AuthTestClient];
    const fresh = "river-kite-2468";

    const wrong = await here.post("/change-password", { currentPassword: "not-my-password", newPassword: fresh });
    expect(wrong).toMatchObject({ status: 400, body: { code: "auth/invalid-credential" } });
    const common = await here.post("/change-password", { currentPassword: password, newPassword: "1qaz2wsx" });
    expect(common).toMatchObject({ status: 400, body: { code: "auth/weak-password", message: commonPasswordMessage } });

    // Without revoking: the other devices stay signed in.
    expect((await kept.post("/change-password", { currentPassword: password, newPassword: fresh })).status).toBe(200);
    expect(await other.me()).not.toBeNull();

    // Typed in decomposed form (NFD), compared in NFC: the same password on any keyboard.
    const accented = "café-lantern-2468";
    const before = sessionToken(here);
    const changed = await here.post("/change-password", { currentPassword: fresh, newPassword: accented.normalize("NFD"), revokeOtherSessions: true });
    expect(changed.status).toBe(200);
    expect(JSON.stringify(changed.body)).not.toContain(sessionToken(here));
    expect(sessionToken(here)).not.toBe(before);
    expect(await here.me()).toMatchObject({ email });
    expect(await other.me()).toBeNull();
    expect(await kept.me()).toBeNull();

    expect((await server.client().post("/sign-in/email", { email, password })).status).toBe(401);
    expect((await server.client().post("/sign-in/email", { email, password: fresh })).status).toBe(401);
    expect((await server.client().post("/sign-in/email", { email, password: accented.normalize("NFC") })).status).toBe(200);
  });

  it("counts a wrong current password towards the account's sign-in lockout", async () => {
    const { email, clients } = await signedInEverywhere(windowsChrome);
    const here = clients[0] as AuthTestClient;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const answer = await here.post("/change-password", { currentPassword: `guess-${attempt}-x`, newPassword: "river-kite-2468" });
      expect(answer.body).toMatchObject({ code: "auth/invalid-credential" });
    }
    const locked = await here.post("/change-password", { currentPassword: password, newPassword: "river-kite-2468" });
    expect(locked).toMatchObject({ status: 429, body: { code: "auth/too-many-requests" } });
    expect(locked.headers.get("retry-after")).toMatch(/^\d+$/);
    // The same lockout as the sign-in screen's: the right password is refused there too until the window ends.
    expect((await server.client().post("/sign-in/email", { email, password })).status).toBe(429);
  });

  it("keeps the fields a user may not set out of reach of the profile update (the field rules of ASVS 8.1.2)", async () => {
    const email = `fields-${randomUUID().slice(0, 8)}@example.tw`;
    const client = server.client();
    expect((await client.post("/sign-up/email", { email, password, name: "小明" })).status).toBe(200);
    const row = () => database().handle.db.selectFrom("user").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    const before = await row();
    for (const field of [{ role: "editor" }, { emailVerified: true }, { isAnonymous: true }, { email: `taken-${email}` }, { id: "someone-else" }, { createdAt: "2000-01-01T00:00:00.000Z" }]) {
      expect((await client.post("/update-user", field)).status).toBeGreaterThanOrEqual(400);
    }
    expect((await client.post("/update-user", { name: "小華" })).status).toBe(200);
    const after = await row();
    expect({ ...after, name: before.name, updatedAt: before.updatedAt }).toEqual(before);
    expect(after.name).toBe("小華");
  });

  it("lets the operator end every session of one account by email, or of everyone", async () => {
    const first = await signedInEverywhere(windowsChrome, iphoneSafari);
    const second = await signedInEverywhere(windowsChrome);
    const handle = database().handle;

    expect(await endSessionsOf(handle, ` ${first.email.toUpperCase()} `)).toBe(2);
    for (const client of first.clients) expect(await client.me()).toBeNull();
    expect(await second.clients[0]?.me()).not.toBeNull();
    expect(await endSessionsOf(handle, "nobody@example.tw")).toBeNull();

    expect(await endAllSessions(handle)).toBeGreaterThanOrEqual(2);
    expect(await second.clients[0]?.me()).toBeNull();
    const remaining = await handle.db.selectFrom("session").select((eb) => eb.fn.countAll().as("count")).executeTakeFirstOrThrow();
    expect(Number(remaining.count)).toBe(0);
  });
});
