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
    [{ SITE_URL: "https://taskhero.tw", SMTP_HOST: "smtp.taskhero.tw", AUTH_SECRET: "x".repeat(32) }, "APP_URL"],
    [{ PASSWORD_MAX_LENGTH: "200" }, "PASSWORD_MAX_LENGTH"],
    // The development mailbox and sign-in are on with a loopback SITE_URL: never on a network address.
    [{ HOST: "0.0.0.0" }, "HOST"],
    [{ SITE_URL: "http://127.0.0.1:3000", HOST: "192.168.1.20" }, "HOST"],
    [{ HOST: "::" }, "HOST"],
  ])("refuses %o naming %s", (source, variable) => {
    expect(() => parseEnv(source)).toThrow(ConfigError);
    expect(() => parseEnv(source)).toThrow(new RegExp(`^\\s+${variable}:`, "m"));
  });
});
