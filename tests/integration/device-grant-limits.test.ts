import { Hono } from "hono";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAppSignIn } from "~/features/app-sign-in/app-sign-in.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";
import { familyWithChild, signedUpAccount, tabletApp } from "./factories";

const deviceGrant = "urn:ietf:params:oauth:grant-type:device_code";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The device grant's limits (RFC 8628 section 3.5, 5.1) and its races, on a real server over SQLite and PostgreSQL: the
 * device authorization answer names its `interval`; a poll sooner than it is `slow_down` and the interval grows
 * by 5 s; wrong codes typed at /device are limited per address and per parent; and polls sent at the same moment
 * (to one instance, or to two instances that count apart) give one tablet its tokens and never a 500.
 */
describeEachDatabase("the device grant's limits", (database) => {
  let server: AuthTestServer;
  /** A second instance on the same database, with counters of its own (two instances without Redis). */
  let other: AuthTestServer;
  const start = () =>
    startAuthServer(
      database(),
      { DATA_DIR: database().dataDir, OIDC_CLIENTS: JSON.stringify([tabletApp]) },
      { routes: (service) => new Hono().route("/", createAppSignIn({ authService: service }).routes) },
    );

  beforeAll(async () => {
    server = await start();
    other = await start();
  });
  afterAll(async () => {
    await other.close();
    await server.close();
  });

  async function parentWithChild() {
    const { client, id } = await signedUpAccount(server, { prefix: "limits", name: "小明媽媽" });
    const { childId } = await familyWithChild(database().handle.db, { id });
    return { client, childId };
  }
  const cookieOf = (client: AuthTestClient) => [...client.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  const startDevice = async (on: AuthTestServer = server) => {
    const answer = await fetch(`${on.baseURL}/oidc/device/auth`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: "tablet", scope: "openid profile offline_access" }),
    });
    expect(answer.status).toBe(200);
    return (await answer.json()) as { device_code: string; user_code: string; interval?: number; expires_in: number };
  };
  const poll = async (deviceCode: string, on: AuthTestServer = server) => {
    const answer = await fetch(`${on.baseURL}/oidc/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: deviceGrant, device_code: deviceCode, client_id: "tablet" }),
    });
    return { status: answer.status, body: (await answer.json()) as { error?: string; refresh_token?: string; access_token?: string } };
  };
  const refresh = async (refreshToken: string) => {
    const answer = await fetch(`${server.baseURL}/oidc/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: "tablet" }),
    });
    return { status: answer.status, body: (await answer.json()) as { error?: string; refresh_token?: string } };
  };
  const approve = async (client: AuthTestClient, userCode: string, child: string, ip?: string) => {
    const answer = await fetch(`${server.baseURL}/device`, {
      method: "POST",
      headers: { origin: server.baseURL, "content-type": "application/x-www-form-urlencoded", cookie: cookieOf(client), "x-forwarded-for": ip ?? client.ip },
      body: new URLSearchParams({ user_code: userCode, child }).toString(),
    });
    return { status: answer.status, html: await answer.text(), retryAfter: answer.headers.get("retry-after") };
  };
  const typeCode = async (client: AuthTestClient, userCode: string, ip?: string) => {
    const answer = await fetch(`${server.baseURL}/device?user_code=${encodeURIComponent(userCode)}`, { headers: { cookie: cookieOf(client), "x-forwarded-for": ip ?? client.ip } });
    return { status: answer.status, html: await answer.text(), retryAfter: answer.headers.get("retry-after") };
  };

  it("names the interval, answers slow_down to a poll sooner than it, and then asks for 5 s more", async () => {
    const started = await startDevice();
    expect(started.interval).toBe(5);
    expect(await poll(started.device_code)).toMatchObject({ status: 400, body: { error: "authorization_pending" } });
    expect(await poll(started.device_code)).toMatchObject({ status: 400, body: { error: "slow_down" } });
    // 5 s would do before the slow_down; now the interval is 10 s.
    await sleep(5_200);
    expect(await poll(started.device_code)).toMatchObject({ status: 400, body: { error: "slow_down" } });

    // A tablet that keeps to the interval is never told to slow down.
    const patient = await startDevice();
    expect((await poll(patient.device_code)).body.error).toBe("authorization_pending");
    await sleep(5_050);
    expect((await poll(patient.device_code)).body.error).toBe("authorization_pending");
  }, 30_000);

  it("limits wrong codes at /device per parent (every browser) and per address, with the wait in words, never finding a code past it", async () => {
    const { client, childId } = await parentWithChild();
    const address = `10.200.${Math.floor(Math.random() * 250)}.1`;
    for (let attempt = 0; attempt < 5; attempt += 1) expect((await typeCode(client, `WRNG-${attempt}XYZ`, address)).status).toBe(404);
    const refused = await typeCode(client, "WRNG-LAST", address);
    expect(refused.status).toBe(429);
    expect(refused.html).toContain("代碼輸入錯誤的次數太多了");
    expect(refused.html).toMatch(/請在 \d+ (分鐘|秒)後再試/);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    // From another address the same parent is still refused, a real code included (it learns nothing), and approving too.
    const started = await startDevice();
    expect((await typeCode(client, started.user_code, "10.201.0.9")).status).toBe(429);
    expect((await approve(client, started.user_code, childId, "10.201.0.9")).status).toBe(429);

    // Per address: other parents guessing from one address are stopped at its limit (20 in 10 minutes).
    const shared = `10.202.${Math.floor(Math.random() * 250)}.7`;
    let answered = 0;
    for (let parent = 0; parent < 5; parent += 1) {
      const { client: guesser } = await parentWithChild();
      for (let attempt = 0; attempt < 4; attempt += 1) {
        expect((await typeCode(guesser, `GUES-${parent}${attempt}XX`, shared)).status).toBe(404);
        answered += 1;
      }
    }
    expect(answered).toBe(20);
    const { client: next } = await parentWithChild();
    expect((await typeCode(next, "GUES-MORE", shared)).status).toBe(429);
    // Elsewhere that parent finds the code and approves the tablet: a right code is not counted.
    expect((await typeCode(next, started.user_code)).status).toBe(200);
  }, 60_000);

  it("two polls at once never answer 500: one wins with tokens whose refresh works, the other slow_down or invalid_grant (20 races)", async () => {
    const { client, childId } = await parentWithChild();
    const seen: string[] = [];
    for (let race = 0; race < 20; race += 1) {
      const started = await startDevice();
      expect((await approve(client, started.user_code, childId)).status).toBe(200);
      // Every other race: the polls go to two instances that count apart, so both reach the database.
      const targets = race % 2 === 0 ? [server, server, server] : [server, other, server, other];
      const answers = await Promise.all(targets.map((target) => poll(started.device_code, target)));
      const statuses = answers.map((answer) => answer.status);
      seen.push(...answers.map((answer) => (answer.status === 200 ? "200" : answer.body.error!)));
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      for (const answer of answers.filter((candidate) => candidate.status !== 200)) {
        expect([answer.status, ["slow_down", "invalid_grant"].includes(answer.body.error!)]).toEqual([400, true]);
      }
      const winner = answers.find((answer) => answer.status === 200)!;
      const renewed = await refresh(winner.body.refresh_token!);
      expect([race, renewed.status]).toEqual([race, 200]);
    }
    expect(seen).not.toContain("server_error");
    // After the interval, a used code is refused without ending the tablet's sign-in.
    const { client: parent, childId: child } = await parentWithChild();
    const started = await startDevice();
    expect((await approve(parent, started.user_code, child)).status).toBe(200);
    const tokens = await poll(started.device_code);
    expect(tokens.status).toBe(200);
    await sleep(5_050);
    expect(await poll(started.device_code)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await refresh(tokens.body.refresh_token!)).status).toBe(200);
  }, 120_000);
});
