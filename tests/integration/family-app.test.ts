import { decodeJwt } from "jose";
import { Hono } from "hono";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Configuration } from "openid-client";
import { createAppSignIn } from "~/features/app-sign-in/app-sign-in.server";
import { familyApi } from "~/features/family/family-api.server";
import { addChild, createFamily } from "~/features/family/family-store.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { discoverProvider, finishSignIn, startSignIn, userInfo } from "~tests/fixtures/reference-client";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";
import { authorize, decide, partnerSecret, testClients } from "./app-sign-in-fixtures";
import { signedUpAccount } from "./factories";

const brand = { productName: "任務小勇士", supportEmail: "support@example.tw", siteUrl: "http://localhost" };

/**
 * The family in the app's tokens and API (PRODUCT §5, Families): the `family` claim, and `GET /api/family`, which
 * needs the `family` scope (a first-party app asks for it; a third-party app only after the parent's consent).
 */
describeEachDatabase("the family in the app", (database) => {
  let server: AuthTestServer;
  let app: Configuration;

  beforeAll(async () => {
    server = await startAuthServer(
      database(),
      { DATA_DIR: database().dataDir, OIDC_CLIENTS: JSON.stringify(testClients), OIDC_CLIENT_SECRET_PARTNER: partnerSecret },
      {
        routes: (service) => {
          const appSignIn = createAppSignIn({ authService: service });
          return new Hono().route("/", appSignIn.routes).route("/", familyApi({ db: database().handle.db, appTokenUser: appSignIn.accessTokenAccount }));
        },
      },
    );
    app = await discoverProvider({ issuer: server.baseURL, clientId: "app" });
  });
  afterAll(async () => {
    await server.close();
  });

  const parent = (name: string) => signedUpAccount(server, { prefix: "family-app", name });

  const withFamily = { scope: "openid email profile offline_access family" };

  async function signInApp(browser: AuthTestClient, extra: Record<string, string> = withFamily) {
    const pending = await startSignIn(app, "tw.example.app:/callback", extra);
    const outcome = await authorize(browser, server, pending.url);
    if (!("left" in outcome)) throw new Error("the app's sign-in did not come back to the app");
    return finishSignIn(app, outcome.left, pending);
  }

  const familyAnswer = async (token: string | null) => {
    const response = await fetch(`${server.baseURL}/api/family`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("answers null before there is a family, then the family with its parents and children; the claims name it", async () => {
    const mother = await parent("小明媽媽");
    const before = await signInApp(mother.client);
    expect(await familyAnswer(before.access_token)).toEqual({ status: 200, body: { family: null } });
    expect(decodeJwt(before.id_token!).family).toBeUndefined();

    const familyId = await createFamily(database().handle.db, brand, mother, "王家");
    const childId = await addChild(database().handle.db, brand, mother, { name: "小明", avatar: "lion", birthYear: 2019 }, { ipAddress: null, userAgent: null });
    const tokens = await signInApp(mother.client);
    expect(decodeJwt(tokens.id_token!).family).toEqual({ id: familyId, name: "王家", role: "owner" });
    expect((await userInfo(app, tokens.access_token, decodeJwt(tokens.id_token!).sub!)).family).toEqual({ id: familyId, name: "王家", role: "owner" });

    const { status, body } = await familyAnswer(tokens.access_token);
    expect(status).toBe(200);
    expect(body.family).toEqual({
      id: familyId,
      name: "王家",
      role: "owner",
      parents: [{ id: mother.id, name: "小明媽媽", email: mother.email, role: "owner" }],
      children: [{ id: childId, name: "小明", avatar: "lion", birthYear: 2019 }],
    });
  });

  it("refuses a token without the family scope (403, insufficient_scope), though it opens userinfo", async () => {
    const mother = await parent("小美媽媽");
    await createFamily(database().handle.db, brand, mother, "林家");
    const tokens = await signInApp(mother.client, {});
    expect(tokens.scope?.split(" ")).not.toContain("family");
    const response = await fetch(`${server.baseURL}/api/family`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope", scope="family"');
    expect(await response.json()).toEqual({ error: { code: "family/insufficient-scope", message: expect.stringContaining("family 範圍") } });
    expect((await userInfo(app, tokens.access_token, decodeJwt(tokens.id_token!).sub!)).sub).toBe(mother.id);
  });

  it("lets a third-party app read the family only after the consent screen names it, in Chinese", async () => {
    const partner = await discoverProvider({ issuer: server.baseURL, clientId: "partner", clientSecret: partnerSecret });
    const father = await parent("小華爸爸");
    const familyId = await createFamily(database().handle.db, brand, father, "陳家");
    const pending = await startSignIn(partner, "https://partner.example.test/callback", withFamily);
    const consent = await authorize(father.client, server, pending.url);
    if (!("page" in consent)) throw new Error("a third-party app's sign-in must stop at the consent screen");
    const html = String(consent.page.body);
    expect(html).toContain("<li>你的家庭：家庭名稱、家長的名稱與電子郵件，以及孩子的名字、大頭貼和出生年</li>");
    const action = /action="([^"]+)"/.exec(html)![1]!;
    const outcome = await decide(father.client, server, action, "allow");
    if (!("left" in outcome)) throw new Error("the consent did not come back to the app");
    const tokens = await finishSignIn(partner, outcome.left, pending);
    expect(tokens.scope?.split(" ")).toContain("family");
    expect((await familyAnswer(tokens.access_token)).body.family).toMatchObject({ id: familyId, name: "陳家" });
  });

  it("refuses a call without a valid access token, in the API's error shape", async () => {
    for (const token of [null, "not-a-token"]) {
      const { status, body } = await familyAnswer(token);
      expect(status).toBe(401);
      expect(body).toEqual({ error: { code: "family/unauthorized", message: expect.stringContaining("存取權杖") } });
    }
  });
});
