import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Hono } from "hono";
import { parseEnv } from "~/config/env.server";
import { createAuthService } from "~/features/auth/index.server";
import { devMailboxApi } from "~/features/dev-tools/dev-mailbox.server";
import { runSelfTest } from "~/features/dev-tools/self-test.server";
import { createTestDatabase, type TestDatabase } from "~tests/helpers/databases";
import { authRoutes } from "~server/auth-routes";
import { solvedBotCheck, startAuthServer } from "./auth-server";

// What changes between a developer's machine and a public deployment; the database does not matter here.
describe("sign-in layer by deployment", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    await database.drop();
  });

  const publicSite = () =>
    createAuthService({
      env: parseEnv({
        SITE_URL: "https://taskhero.tw",
        APP_URL: "https://app.taskhero.tw",
        SMTP_HOST: "smtp.taskhero.tw",
        AUTH_SECRET: "a-production-secret-that-is-long-enough-0123",
        COOKIE_DOMAIN: "taskhero.tw",
      }),
      database: database.handle,
    });

  it("sets a Secure, HttpOnly, SameSite=Lax session cookie for the parent domain on an https site", async () => {
    const service = publicSite();
    const app = new Hono().route("/", authRoutes(service));
    // A public site always asks the bot check before a guest.
    const botCheck = await solvedBotCheck((path) => Promise.resolve(app.request(`https://taskhero.tw/api/auth${path}`)));
    const answer = await app.request("https://taskhero.tw/api/auth/sign-in/anonymous", {
      method: "POST",
      headers: { origin: "https://taskhero.tw", "content-type": "application/json", "x-bot-check": botCheck },
      body: "{}",
    });
    expect(answer.status).toBe(200);
    const cookie = answer.headers.getSetCookie().find((line) => line.includes("session_token=")) ?? "";
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Domain=taskhero\.tw/i);
    await service.close();
  });

  it("names every cookie __Host- (Secure, Path=/, no Domain) on an https site that shares no cookie domain", async () => {
    const service = createAuthService({
      env: parseEnv({
        SITE_URL: "https://taskhero.tw",
        APP_URL: "https://app.taskhero.tw",
        SMTP_HOST: "smtp.taskhero.tw",
        AUTH_SECRET: "a-production-secret-that-is-long-enough-0123",
      }),
      database: database.handle,
    });
    const app = new Hono().route("/", authRoutes(service));
    const botCheck = await solvedBotCheck((path) => Promise.resolve(app.request(`https://taskhero.tw/api/auth${path}`)));
    const headers = { origin: "https://taskhero.tw", "content-type": "application/json", "x-bot-check": botCheck };
    const answer = await app.request("https://taskhero.tw/api/auth/sign-in/anonymous", { method: "POST", headers, body: "{}" });
    expect(answer.status).toBe(200);
    const cookie = answer.headers.getSetCookie().find((line) => line.includes("session_token=")) ?? "";
    expect(cookie).toMatch(/^__Host-/);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; Path=\//i);
    expect(cookie).not.toMatch(/; Domain=/i);
    // The site reads its own cookie back.
    const me = await app.request("https://taskhero.tw/api/auth/me", { headers: { cookie: cookie.split(";")[0] ?? "" } });
    expect(((await me.json()) as { user: { isAnonymous: boolean } | null }).user?.isAnonymous).toBe(true);
    await service.close();
  });

  it("has no development mailbox or identity provider on a public site", async () => {
    const service = publicSite();
    const app = new Hono().route("/", authRoutes(service));
    expect(service.devMailbox).toBe(false);
    expect(service.devIdentityProvider).toBeUndefined();
    expect((await devMailboxApi(new Request("https://taskhero.tw/api/dev/mailbox"), service)).status).toBe(404);
    expect((await app.request("https://taskhero.tw/dev-oidc/.well-known/openid-configuration")).status).toBe(404);
    await service.close();
  });

  it("shows a public site's self-test without its database, mail or limiter", async () => {
    const service = publicSite();
    const check = vi.spyOn(service.mail, "check");
    const report = await runSelfTest(service);
    expect(Object.keys(report).sort()).toEqual(["authApi", "providers"]);
    expect(JSON.stringify(report)).not.toMatch(/SQLite|PostgreSQL|smtp|redis|memory/i);
    expect(check).not.toHaveBeenCalled();
    await service.close();
  });

  it("replaces the development identity provider with the real ones once their keys are set", async () => {
    const server = await startAuthServer(database, { GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "secret" });
    try {
      expect(server.service.devIdentityProvider).toBeUndefined();
      expect(server.service.devMailbox).toBe(true);
      expect((await fetch(`${server.baseURL}/dev-oidc/.well-known/openid-configuration`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it("serves the development OpenID provider's discovery document on a loopback site", async () => {
    const server = await startAuthServer(database);
    try {
      const answer = await fetch(`${server.baseURL}/dev-oidc/.well-known/openid-configuration`);
      expect(answer.status).toBe(200);
      const discovery = (await answer.json()) as { issuer: string; authorization_endpoint: string };
      expect(discovery.issuer).toBe(`${server.baseURL}/dev-oidc`);
      expect(discovery.authorization_endpoint).toMatch(new RegExp(`^${server.baseURL}/dev-oidc/`));
    } finally {
      await server.close();
    }
  });
});
