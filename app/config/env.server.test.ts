import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env.server";

describe("parseEnv", () => {
  it("runs on no configuration at all with the local defaults", () => {
    const env = parseEnv({});
    expect(env.PRODUCT_NAME).toBe("任務小勇士");
    expect(env.SITE_URL).toBe("http://localhost:3000");
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PASSWORD_MIN_LENGTH).toBe(8);
    expect(env.THEME_COLOR).toBe("#4a6bff");
    expect(env.isLoopbackSite).toBe(true);
    expect(env.allowedHostnames).toEqual(["localhost", "app.localhost", "127.0.0.1"]);
    expect(env.HOST).toBe("127.0.0.1");
  });

  it("derives the allowed hostnames from SITE_URL", () => {
    const env = parseEnv({
      SITE_URL: "https://taskhero.tw/",
      APP_URL: "https://app.taskhero.tw",
      SMTP_HOST: "smtp.taskhero.tw",
      AUTH_SECRET: "x".repeat(32),
    });
    expect(env.SITE_URL).toBe("https://taskhero.tw");
    expect(env.allowedHostnames).toEqual(["taskhero.tw", "app.taskhero.tw"]);
    expect(env.isLoopbackSite).toBe(false);
    expect(env.HOST).toBe("0.0.0.0");
  });

  it.each(["127.0.0.1", "localhost", "::1", "127.0.0.2"])("takes the loopback bind %s with a loopback SITE_URL", (host) => {
    expect(parseEnv({ HOST: host }).HOST).toBe(host);
  });

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ SITE_URL: "not a url" }, "SITE_URL"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ THEME_COLOR: "blue" }, "THEME_COLOR"],
    [{ PASSWORD_MIN_LENGTH: "4" }, "PASSWORD_MIN_LENGTH"],
    [{ GOOGLE_CLIENT_ID: "id-only" }, "GOOGLE_CLIENT_SECRET"],
    [{ SITE_URL: "https://example.tw" }, "SMTP_HOST"],
    [{ SITE_URL: "https://example.tw", SMTP_HOST: "smtp.example.tw" }, "AUTH_SECRET"],
    [{ SITE_URL: "https://taskhero.tw", SMTP_HOST: "smtp.taskhero.tw", AUTH_SECRET: "x".repeat(32), APP_URL: "https://app.example.tw" }, "APP_URL"],
    [{ OIDC_CLIENTS: "[{" }, "OIDC_CLIENTS"],
    [{ OIDC_CLIENTS: JSON.stringify([{ client_id: "app", redirect_uris: ["http://evil.example/cb"] }]) }, "OIDC_CLIENTS"],
    // RFC 8252: a private-use scheme is a reverse domain name and has no host part.
    [{ OIDC_CLIENTS: JSON.stringify([{ client_id: "app", redirect_uris: ["app://callback"] }]) }, "OIDC_CLIENTS"],
    [{ OIDC_CLIENTS: JSON.stringify([{ client_id: "a", redirect_uris: ["https://a.tw/cb"] }, { client_id: "a", redirect_uris: ["https://a.tw/cb"] }]) }, "OIDC_CLIENTS"],
    [{ OIDC_CLIENTS: JSON.stringify([{ client_id: "partner-web", redirect_uris: ["https://partner.tw/cb"], public: false }]) }, "OIDC_CLIENT_SECRET_PARTNER_WEB"],
    [{ OIDC_JWKS: JSON.stringify({ keys: [{ kty: "EC", kid: "k", alg: "ES256" }] }) }, "OIDC_JWKS"],
    // A back-channel address is a server's: https, or plain http on this machine only.
    [{ OIDC_CLIENTS: JSON.stringify([{ client_id: "app", redirect_uris: ["https://a.tw/cb"], backchannel_logout_uri: "http://api.a.tw/logout" }]) }, "OIDC_CLIENTS"],
    [{ OIDC_CLIENTS: JSON.stringify([{ client_id: "app", redirect_uris: ["https://a.tw/cb"], backchannel_logout_uri: "https://api.a.tw/logout#x" }]) }, "OIDC_CLIENTS"],
    [{ OIDC_RESOURCES: "https://api.a.tw/,api.a.tw" }, "OIDC_RESOURCES"],
    [{ OIDC_RESOURCES: "http://api.a.tw/" }, "OIDC_RESOURCES"],
    [{ PASSWORD_MAX_LENGTH: "200" }, "PASSWORD_MAX_LENGTH"],
    // The development mailbox and sign-in are on with a loopback SITE_URL: never on a network address.
    [{ HOST: "0.0.0.0" }, "HOST"],
    [{ SITE_URL: "http://127.0.0.1:3000", HOST: "192.168.1.20" }, "HOST"],
    [{ HOST: "::" }, "HOST"],
  ])("refuses %o naming %s", (source, variable) => {
    expect(() => parseEnv(source)).toThrow(ConfigError);
    // A nested value is named by its path below the variable (OIDC_CLIENTS.0.redirect_uris.0).
    expect(() => parseEnv(source)).toThrow(new RegExp(`^\\s+${variable}[.:]`, "m"));
  });

  it("reads the apps of the OpenID provider, each confidential one with the secret of its own variable", () => {
    const env = parseEnv({
      APP_URL: "https://app.taskhero.tw",
      OIDC_CLIENTS: JSON.stringify([
        { client_id: "app", redirect_uris: ["tw.example.app:/callback", "http://127.0.0.1/callback", "https://app.taskhero.tw/callback"], first_party: true },
        { client_id: "partner", redirect_uris: ["https://partner.tw/cb"], public: false },
      ]),
      OIDC_CLIENT_SECRET_PARTNER: "s".repeat(40),
    });
    expect(env.APP_URL).toBe("https://app.taskhero.tw");
    expect(env.oidcClients).toEqual([
      expect.objectContaining({ client_id: "app", public: true, first_party: true, client_secret: undefined, post_logout_redirect_uris: [] }),
      expect.objectContaining({ client_id: "partner", public: false, first_party: false, client_secret: "s".repeat(40) }),
    ]);
    expect(parseEnv({}).APP_URL).toBeUndefined();
    expect(parseEnv({}).oidcClients).toEqual([]);
  });

  it("reads the back-channel address of an app and the APIs that take JWT access tokens", () => {
    const env = parseEnv({
      OIDC_CLIENTS: JSON.stringify([
        { client_id: "app", redirect_uris: ["tw.example.app:/callback"], backchannel_logout_uri: "https://api.taskhero.tw/backchannel-logout" },
        { client_id: "dev", redirect_uris: ["http://127.0.0.1/callback"], backchannel_logout_uri: "http://127.0.0.1:8080/logout" },
      ]),
      OIDC_RESOURCES: " https://api.taskhero.tw/ , http://localhost:8080/ ",
    });
    expect(env.oidcClients.map((client) => client.backchannel_logout_uri)).toEqual(["https://api.taskhero.tw/backchannel-logout", "http://127.0.0.1:8080/logout"]);
    expect(env.OIDC_RESOURCES).toEqual(["https://api.taskhero.tw/", "http://localhost:8080/"]);
    expect(parseEnv({}).OIDC_RESOURCES).toEqual([]);
  });

  it("splits every rate limit between worker processes that count alone, and not when Redis counts for all", () => {
    const worker = parseEnv({ WEB_CONCURRENCY: "2", WEB_CONCURRENCY_WORKER: "2" });
    expect(worker.RATE_LIMIT_SIGN_IN_PER_IP).toEqual({ max: 15, windowSeconds: 60 });
    expect(worker.RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT).toEqual({ max: 5, windowSeconds: 900 });
    expect(parseEnv({ WEB_CONCURRENCY: "3", WEB_CONCURRENCY_WORKER: "1" }).RATE_LIMIT_SIGN_IN_PER_IP.max).toBe(10);
    expect(parseEnv({ WEB_CONCURRENCY: "2", WEB_CONCURRENCY_WORKER: "1", REDIS_URL: "redis://127.0.0.1:6379" }).RATE_LIMIT_SIGN_IN_PER_IP.max).toBe(30);
    expect(parseEnv({}).RATE_LIMIT_SIGN_IN_PER_IP.max).toBe(30);
    expect(() => parseEnv({ WEB_CONCURRENCY: "0" })).toThrow(ConfigError);
  });

  it("reads an empty or blank WEB_CONCURRENCY as unset (auto) on SQLite and on PostgreSQL alike", () => {
    for (const DATABASE_URL of ["", "postgres://site@127.0.0.1:5432/site"]) {
      expect(parseEnv({ DATABASE_URL, WEB_CONCURRENCY: "" }).WEB_CONCURRENCY).toBe("auto");
      expect(parseEnv({ DATABASE_URL, WEB_CONCURRENCY: "  " }).WEB_CONCURRENCY).toBe("auto");
      expect(parseEnv({ DATABASE_URL, WEB_CONCURRENCY: " 2 " }).WEB_CONCURRENCY).toBe(2);
      expect(() => parseEnv({ DATABASE_URL, WEB_CONCURRENCY: "two" })).toThrow(ConfigError);
    }
  });

  it("takes Sign in with Apple's four keys together, the .p8 key on one line, and Apple only over https on a public site", () => {
    const p8 = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const apple = { APPLE_CLIENT_ID: "tw.example.web", APPLE_TEAM_ID: "TEAM123456", APPLE_KEY_ID: "KEY1234567" };
    const env = parseEnv({ ...apple, APPLE_PRIVATE_KEY: p8.replace(/\n/g, "\\n") });
    expect(env.APPLE_PRIVATE_KEY?.trim()).toBe(p8.trim());
    expect(env.APPLE_URL).toBe("https://appleid.apple.com");
    const refused = (source: Record<string, string>) => {
      try {
        parseEnv(source);
        return "";
      } catch (error) {
        return error instanceof ConfigError ? error.message : "";
      }
    };
    expect(refused({ ...apple })).toMatch(/APPLE_PRIVATE_KEY/);
    expect(refused({ ...apple, APPLE_PRIVATE_KEY: "not a key" })).toMatch(/\.p8/);
    expect(refused({ ...apple, APPLE_TEAM_ID: "team", APPLE_PRIVATE_KEY: p8 })).toMatch(/APPLE_TEAM_ID/);
    const publicSite = { SITE_URL: "https://taskhero.tw", SMTP_HOST: "smtp.taskhero.tw", AUTH_SECRET: "x".repeat(32) };
    expect(refused({ ...publicSite, ...apple, APPLE_PRIVATE_KEY: p8, APPLE_URL: "http://127.0.0.1:9" })).toMatch(/APPLE_URL/);
    expect(parseEnv({ ...apple, APPLE_PRIVATE_KEY: p8, APPLE_URL: "http://127.0.0.1:3134/" }).APPLE_URL).toBe("http://127.0.0.1:3134");
  });
});
