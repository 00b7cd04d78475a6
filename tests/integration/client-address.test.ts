import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as oidc from "openid-client";
import { createAppSignIn } from "~/features/app-sign-in/app-sign-in.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { discoverProvider } from "~tests/fixtures/reference-client";
import { startAuthServer, type AuthTestServer } from "./auth-server";
import { familyWithChild, tabletApp } from "./factories";

// One client address for every route that records or limits by address (ASVS 16.2.1): the host works it out from
// the socket and, behind TRUSTED_PROXIES only, X-Forwarded-For (app/services/client-ip.server.ts). Every other
// forwarding header a client can set is its own word about itself: it never lands in the security record, the
// account's device list or a limiter's key. Here 127.0.0.1 (the test's socket) is the trusted proxy, so the real
// address is the one X-Forwarded-For carries; each request also claims another in every header a client can set.


/** Every forwarding header a client can set, each claiming `claimed`. */
const spoofed = (claimed: string): Record<string, string> => ({
  "x-client-ip": claimed,
  "x-real-ip": claimed,
  "true-client-ip": claimed,
  "cf-connecting-ip": claimed,
  forwarded: `for=${claimed}`,
});

describeEachDatabase("the client's address", (database) => {
  let server: AuthTestServer;
  let tablet: oidc.Configuration;
  beforeAll(async () => {
    server = await startAuthServer(
      database(),
      { DATA_DIR: database().dataDir, OIDC_CLIENTS: JSON.stringify([tabletApp]), RATE_LIMIT_SIGN_IN_PER_IP: "5/60" },
      { routes: (service) => new Hono().route("/", createAppSignIn({ authService: service }).routes) },
    );
    tablet = await discoverProvider({ issuer: server.baseURL, clientId: "tablet" });
  });
  afterAll(async () => {
    await server.close();
  });
  const db = () => database().handle.db;

  it("records the real address of a sign-in in the session and the security record, whatever else the request claims", async () => {
    const client = server.client();
    const email = `address-${randomUUID().slice(0, 8)}@example.tw`;
    const signUp = await client.post<{ user: { id: string } }>("/sign-up/email", { email, password: "kite-river-7", name: "王媽媽" }, spoofed("203.0.113.66"));
    expect(signUp.status).toBe(200);
    const sessions = await db().selectFrom("session").select("ipAddress").where("userId", "=", signUp.body.user.id).execute();
    expect(sessions.map((session) => session.ipAddress)).toEqual([client.ip]);
    const records = await db().selectFrom("security_record").select(["event", "ip"]).where("user_id", "=", signUp.body.user.id).execute();
    expect(records.length).toBeGreaterThan(0);
    expect(records.map((record) => record.ip).filter((ip) => ip !== client.ip)).toEqual([]);
  });

  it("limits by the real address: a new claimed address on every request does not reset the per-address limit", async () => {
    const client = server.client();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const answer = await client.post("/sign-in/email", { email: `nobody-${attempt}@example.tw`, password: "wrong-password-1" }, spoofed(`198.51.100.${attempt + 1}`));
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("records the real address when a parent lets a child's tablet in at /device", async () => {
    const parent = server.client();
    const email = `device-${randomUUID().slice(0, 8)}@example.tw`;
    const answer = await parent.post<{ user: { id: string } }>("/sign-up/email", { email, password: "kite-river-7", name: "小明媽媽" });
    const parentId = answer.body.user.id;
    await db().updateTable("user").set({ emailVerified: 1 }).where("id", "=", parentId).execute();
    const { childId } = await familyWithChild(db(), { id: parentId });
    const started = await oidc.initiateDeviceAuthorization(tablet, { scope: "openid profile" });
    const approved = await fetch(`${server.baseURL}/device`, {
      method: "POST",
      headers: {
        ...spoofed("203.0.113.77"),
        origin: server.baseURL,
        "x-forwarded-for": parent.ip,
        "content-type": "application/x-www-form-urlencoded",
        cookie: [...parent.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
      },
      body: new URLSearchParams({ user_code: started.user_code, child: childId }).toString(),
    });
    expect(approved.status).toBe(200);
    const grant = await db().selectFrom("security_record").select("ip").where("user_id", "=", parentId).where("event", "=", "app-grant").execute();
    expect(grant).toEqual([{ ip: parent.ip }]);
    const tabletSession = await db().selectFrom("session").select("ipAddress").where("userId", "=", parentId).where("userAgent", "like", "%平板%").execute();
    expect(tabletSession.map((session) => session.ipAddress)).toEqual([parent.ip]);
  });
});
