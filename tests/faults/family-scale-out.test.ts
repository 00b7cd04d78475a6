import http from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { consentNoticeVersion } from "~/features/family/family-rules";
import { startCluster, type Cluster } from "~tests/helpers/cluster";
import { appRedirectUri, send, userinfoStatus, type Tokens } from "./app-sign-in-client";

const deviceGrant = "urn:ietf:params:oauth:grant-type:device_code";
const tabletClient = { client_id: "tablet", client_name: "任務小勇士平板", redirect_uris: [appRedirectUri], public: true, first_party: true, grant_types: [deviceGrant] };

/**
 * A child's tablet on two instances on PostgreSQL + Redis behind nginx (issue 31): a parent makes a family and a
 * child through the proxy, approves the tablet at /device, the tablet's tokens come from instance A, a parent ends
 * the tablet on instance B (家庭), and A refuses the tablet's refresh and its access token at the next request.
 */
describe.skipIf(!inject("postgresUrl"))("a child's tablet on two instances behind nginx (PostgreSQL + Redis)", () => {
  let cluster: Cluster | undefined;

  beforeAll(async () => {
    cluster = await startCluster({
      label: "family_cluster",
      env: { OIDC_CLIENTS: JSON.stringify([tabletClient]), RATE_LIMIT_AUTH_PER_IP: "1000000/60", RATE_LIMIT_SIGN_IN_PER_IP: "1000000/60" },
    });
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  it("ending a child's tablet on one instance refuses its refresh on the other at the next request", async () => {
    const { origin, ca, instances } = cluster!;
    const [a, b] = instances.map((instance) => instance.baseURL) as [string, string];
    const jar = new Map<string, string>();
    const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const asParent = (url: string, form?: Record<string, string>) => send(url, { form, headers: form ? { origin } : {}, jar, ca });
    // The family's forms go to one instance chosen by the test. The request names the site's own https address
    // (what the server sees behind a proxy that keeps the scheme), so the forms' origin checks pass as on the site.
    const formAt = (instance: string, form?: Record<string, string>) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const body = form ? new URLSearchParams(form).toString() : undefined;
        const { hostname, port } = new URL(instance);
        const headers: Record<string, string> = { host: new URL(origin).host, cookie: cookie() };
        if (body) Object.assign(headers, { origin, "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)) });
        const outgoing = http.request({ hostname, port, method: body ? "POST" : "GET", path: `${origin}/account/family`, headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
        });
        outgoing.on("error", reject);
        outgoing.end(body);
      });

    const email = `family-faults-${Date.now().toString(36)}@example.tw`;
    const created = await send(`${origin}/api/auth/sign-up/email`, { json: { email, password: "tide-meadow-lantern-48", name: "小明媽媽" }, headers: { origin }, jar, ca });
    expect(created.status).toBe(200);
    expect((await formAt(a, { intent: "create-family", name: "王家" })).status).toBe(200);
    const added = await formAt(a, { intent: "add-child", name: "小明", avatar: "lion", birthYear: "2019", consent: "yes", noticeVersion: consentNoticeVersion });
    expect(added.status).toBe(200);

    // The tablet asks for a code; the parent approves it for the child.
    const started = await send(`${origin}/oidc/device/auth`, { form: { client_id: "tablet", scope: "openid profile offline_access" }, ca });
    expect(started.status).toBe(200);
    const { device_code: deviceCode, user_code: userCode } = JSON.parse(started.text) as { device_code: string; user_code: string };
    const picker = await asParent(`${origin}/device?user_code=${encodeURIComponent(userCode)}`);
    const childId = /name="child" value="([^"]+)"/.exec(picker.text)?.[1];
    expect(childId).toBeTruthy();
    expect((await asParent(`${origin}/device`, { user_code: userCode, child: childId! })).text).toContain("「小明」的平板已加入家庭");

    // The tablet's tokens come from A, and A renews them.
    const polled = await send(`${a}/oidc/token`, { form: { grant_type: deviceGrant, device_code: deviceCode, client_id: "tablet" } });
    expect(polled.status).toBe(200);
    const tokens = JSON.parse(polled.text) as Tokens;
    const refreshAt = async (base: string, refreshToken: string) => {
      const answer = await send(`${base}/oidc/token`, { form: { grant_type: "refresh_token", refresh_token: refreshToken, client_id: "tablet" } });
      return { status: answer.status, body: JSON.parse(answer.text) as Tokens };
    };
    const renewed = await refreshAt(a, tokens.refresh_token);
    expect(renewed.status).toBe(200);

    // On B, the family page lists the tablet and the parent ends it there.
    const familyPage = await formAt(b);
    expect(familyPage.text).toContain("小明的平板・任務小勇士平板");
    const deviceId = /name="deviceId" value="([^"]+)"/.exec(familyPage.text)?.[1];
    expect(deviceId).toBeTruthy();
    expect((await formAt(b, { intent: "end-device", deviceId: deviceId! })).text).toContain("已結束這台平板的登入");

    // A refuses the tablet at its next request: the refresh and the access token.
    const refused = await refreshAt(a, renewed.body.refresh_token);
    expect([refused.status, refused.body.error]).toEqual([400, "invalid_grant"]);
    expect(await userinfoStatus(a, renewed.body.access_token)).toBe(401);
    expect((await formAt(a)).text).not.toContain("小明的平板");
  }, 120_000);
});
