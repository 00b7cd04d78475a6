import { Hono } from "hono";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Configuration } from "openid-client";
import { createAppSignIn } from "~/features/app-sign-in/app-sign-in.server";
import { appDeletionApi } from "~/features/account/app-deletion.server";
import { describeEachDatabase } from "~tests/helpers/databases";
import { discoverProvider, finishSignIn, startSignIn } from "~tests/fixtures/reference-client";
import { startAuthServer, type AuthTestClient, type AuthTestServer } from "./auth-server";
import { authorize, decide, partnerSecret, testClients } from "./app-sign-in-fixtures";
import { signedUpAccount } from "./factories";

const partnerRedirect = "https://partner.example.test/callback";

/**
 * Who may start a parent's account deletion from an app (`POST /api/app/account-deletion`), on SQLite and
 * PostgreSQL: our own apps with any live token of the parent; a partner's app only with the `account:delete` scope,
 * which its consent screen names — a token whose consent said only 「知道你是誰」 is refused 403 with a stable code.
 */
describeEachDatabase("account deletion from an app: first-party, or the scope the consent screen names", (database) => {
  let server: AuthTestServer;
  let ours: Configuration;
  let partner: Configuration;

  beforeAll(async () => {
    server = await startAuthServer(
      database(),
      { DATA_DIR: database().dataDir, OIDC_CLIENTS: JSON.stringify(testClients), OIDC_CLIENT_SECRET_PARTNER: partnerSecret },
      {
        routes: (service) => {
          const appSignIn = createAppSignIn({ authService: service });
          return new Hono()
            .route("/", appSignIn.routes)
            .route("/", appDeletionApi({ db: database().handle.db, siteUrl: service.env.SITE_URL, appTokenAccount: appSignIn.accessTokenAccount }));
        },
      },
    );
    ours = await discoverProvider({ issuer: server.baseURL, clientId: "app" });
    partner = await discoverProvider({ issuer: server.baseURL, clientId: "partner", clientSecret: partnerSecret });
  });
  afterAll(async () => {
    await server.close();
  });

  const parent = async () => (await signedUpAccount(server, { prefix: "deletion" })).client;
  /** The partner's sign-in with `scope`, through its consent screen (whose list of what it may do is returned). */
  async function partnerToken(browser: AuthTestClient, scope: string) {
    const pending = await startSignIn(partner, partnerRedirect, { scope });
    const screen = await authorize(browser, server, pending.url);
    if (!("page" in screen)) throw new Error("no consent screen");
    const html = String(screen.page.body);
    const allowed = await decide(browser, server, /action="([^"]+)"/.exec(html)![1]!, "allow");
    if (!("left" in allowed)) throw new Error("no code after consent");
    return { html, accessToken: (await finishSignIn(partner, allowed.left, pending)).access_token };
  }
  const startDeletion = async (token: string) => {
    const answer = await fetch(`${server.baseURL}/api/app/account-deletion`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    return { status: answer.status, body: (await answer.json()) as { url?: string; error?: { code: string; message: string } }, challenge: answer.headers.get("www-authenticate") };
  };

  it("refuses a partner's token whose consent said only 「知道你是誰」 (403 account/deletion-scope-required)", async () => {
    const browser = await parent();
    const { html, accessToken } = await partnerToken(browser, "openid");
    expect(html).toContain("知道你是誰");
    expect(html).not.toContain("刪除帳號");
    const refused = await startDeletion(accessToken);
    expect(refused).toMatchObject({ status: 403, body: { error: { code: "account/deletion-scope-required", message: expect.stringContaining("刪除帳號") } } });
    expect(refused.challenge).toContain('error="insufficient_scope"');
    expect(await database().handle.db.selectFrom("app_deletion_ticket").select("user_id").execute()).toEqual([]);
  });

  it("gives a partner the address once the parent consented to the scope the consent screen names", async () => {
    const browser = await parent();
    const { html, accessToken } = await partnerToken(browser, "openid account:delete");
    expect(html).toContain("幫你開始刪除帳號");
    const started = await startDeletion(accessToken);
    expect(started.status).toBe(201);
    expect(started.body.url).toContain("/account-deletion/from-app?ticket=");
  });

  it("gives our own app the address with any live token of the parent", async () => {
    const browser = await parent();
    const pending = await startSignIn(ours, "tw.example.app:/callback", { scope: "openid" });
    const outcome = await authorize(browser, server, pending.url);
    if (!("left" in outcome)) throw new Error("our app's sign-in did not finish");
    const tokens = await finishSignIn(ours, outcome.left, pending);
    expect((await startDeletion(tokens.access_token)).status).toBe(201);
  });
});
