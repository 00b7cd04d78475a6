import { afterAll, beforeAll, expect, it } from "vitest";
import type { Configuration } from "openid-client";
import { endSessionsOf } from "~/features/auth/index.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { discoverProvider, logoutUrl, signOut, type TokenSet } from "~tests/fixtures/reference-client";
import { startBackchannelReceiver, type BackchannelReceiver } from "~tests/fixtures/backchannel-receiver";
import type { AuthTestClient, AuthTestServer } from "./auth-server";
import { startAppSignInServer, testClients } from "./app-sign-in-fixtures";
import { appSignIn, signedUpAccount } from "./factories";

const password = "kite-river-7";

/**
 * Back-channel logout (decision 190) to the app's backend, a receiver on loopback that verifies each logout token
 * (signature against the provider's JWKS, claims): one for every way an app's sign-in ends, delivered through the
 * outbox, so an app that is down gets it later. On a real server, SQLite and PostgreSQL.
 */
describeEachDatabase("app sign-in: back-channel logout", (database) => {
  let server: AuthTestServer;
  let app: Configuration;
  let receiver: BackchannelReceiver;

  beforeAll(async () => {
    receiver = await startBackchannelReceiver({ issuer: () => server.baseURL, audience: "app" });
    const clients = testClients.map((client) => (client.client_id === "app" ? { ...client, backchannel_logout_uri: receiver.uri } : client));
    server = await startAppSignInServer(database(), { OIDC_CLIENTS: JSON.stringify(clients) });
    app = await discoverProvider({ issuer: server.baseURL, clientId: "app" });
  });
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  const parent = () => signedUpAccount(server, { prefix: "backchannel", password });
  const signInApp = (browser: AuthTestClient): Promise<TokenSet> => appSignIn(app, server, browser);

  /** The verified logout token for the sign-in `tokens` began: same sub and sid as its ID token. */
  const logoutFor = async (tokens: TokenSet) => {
    const { sub, sid } = tokens.claims()!;
    expect(typeof sid).toBe("string");
    const payload = await receiver.waitFor((candidate) => candidate.sid === sid);
    expect(payload).toMatchObject({ iss: server.baseURL, aud: "app", sub, sid, events: { "http://schemas.openid.net/event/backchannel-logout": {} } });
    expect(payload.exp! - payload.iat!).toBeLessThanOrEqual(120);
    return payload;
  };

  it("the app's own sign-out (revocation) and end-session each send one", async () => {
    const { client } = await parent();
    const revoked = await signInApp(client);
    await signOut(app, revoked.refresh_token!);
    await logoutFor(revoked);

    // RP-initiated logout: the confirmation page's form, posted like the browser would.
    const ended = await signInApp(client);
    const page = await client.request("GET", new URL(logoutUrl(app, ended.id_token!, "tw.example.app:/signed-out")).pathname + new URL(logoutUrl(app, ended.id_token!, "tw.example.app:/signed-out")).search);
    const html = String(page.body);
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? "";
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
    const confirm = await fetch(new URL(action.replaceAll("&amp;", "&"), server.baseURL), {
      method: "POST",
      headers: { origin: server.baseURL, "content-type": "application/x-www-form-urlencoded", cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
      body: new URLSearchParams({ xsrf }),
      redirect: "manual",
    });
    expect(confirm.status).toBeGreaterThanOrEqual(300);
    expect(confirm.status).toBeLessThan(400);
    await logoutFor(ended);
    // The app's refresh token ended with it.
    await expect(import("openid-client").then((oidc) => oidc.refreshTokenGrant(app, ended.refresh_token!))).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("sign-out everywhere, a password change and ending the device each send one", async () => {
    const { client } = await parent();
    const everywhere = await signInApp(client);
    expect((await client.post("/revoke-sessions")).status).toBe(200);
    await logoutFor(everywhere);

    const again = await parent();
    const beforeChange = await signInApp(again.client);
    const changed = await again.client.post("/change-password", { currentPassword: password, newPassword: "new-kite-river-8", revokeOtherSessions: true });
    expect(changed.status).toBe(200);
    await logoutFor(beforeChange);

    const third = await parent();
    const device = await signInApp(third.client);
    const devices = await third.client.get<{ devices: Array<{ id: string }> }>("/devices");
    const appDevice = devices.body.devices.find((candidate) => candidate.id !== devices.body.devices[0]!.id);
    expect((await third.client.post("/devices/end", { id: appDevice!.id })).status).toBe(200);
    await logoutFor(device);
  });

  it("the operator's sign-out and account deletion each send one", async () => {
    const first = await parent();
    const operator = await signInApp(first.client);
    expect(await endSessionsOf(database().handle, first.email)).toBeGreaterThanOrEqual(2);
    await logoutFor(operator);

    const second = await parent();
    const deleted = await signInApp(second.client);
    expect((await second.client.post("/delete-user", { password })).status).toBe(200);
    await logoutFor(deleted);
  });

  it("an app that is down gets the logout token later: the outbox retries it", async () => {
    const { client } = await parent();
    const tokens = await signInApp(client);
    receiver.down = true;
    const turnedAwayBefore = receiver.turnedAway;
    try {
      await signOut(app, tokens.refresh_token!);
      const deadline = Date.now() + 10_000;
      while (receiver.turnedAway === turnedAwayBefore && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(receiver.turnedAway).toBeGreaterThan(turnedAwayBefore);
      const row = await database()
        .handle.db.selectFrom("mail_outbox")
        .select(["attempts", "sent_at", "last_error"])
        .where("recipient", "=", receiver.uri)
        .where("sent_at", "is", null)
        .executeTakeFirstOrThrow();
      expect(row.last_error).toContain("503");
    } finally {
      receiver.down = false;
    }
    // The first retry comes five seconds later.
    await logoutFor(tokens);
  }, 30_000);
});
