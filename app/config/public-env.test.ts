import { expect, it } from "vitest";
import { parseEnv } from "./env.server";
import { toPublicEnv } from "./public-env";

it("hands the browser no secret and no server-only setting", () => {
  const secrets = {
    AUTH_SECRET: "s".repeat(40),
    SMTP_PASSWORD: "smtp-password-value",
    GOOGLE_CLIENT_SECRET: "google-secret-value",
    S3_SECRET_ACCESS_KEY: "s3-secret-value",
    DATABASE_URL: "postgres://user:db-password@db.internal:5432/site",
    REDIS_URL: "redis://:redis-password@cache.internal:6379",
  };
  const env = parseEnv({
    ...secrets,
    SITE_URL: "https://taskhero.tw",
    APP_URL: "https://app.taskhero.tw",
    SMTP_HOST: "smtp.taskhero.tw",
    GOOGLE_CLIENT_ID: "google-id",
    S3_ACCESS_KEY_ID: "s3-key-id",
  });
  const sent = JSON.stringify(toPublicEnv(env));
  for (const value of Object.values(secrets)) expect(sent).not.toContain(value);
  expect(sent).not.toContain("db.internal");
  expect(Object.keys(toPublicEnv(env)).sort()).toEqual(
    [
      "allowedHostnames",
      "appUrl",
      "blogSalonUrl",
      "facebookPageUrl",
      "followUs",
      "feedbackFormUrl",
      "gaMeasurementId",
      "productName",
      "siteUrl",
      "storageBucket",
      "supportEmail",
      "themeColor",
      "youtubeUrl",
    ].sort(),
  );
});

it("sends 追蹤我們 to the Facebook group, else the Facebook page, else the site's own 最新消息", () => {
  const followUs = (vars: Record<string, string>) => toPublicEnv(parseEnv(vars)).followUs;
  const group = "https://www.facebook.com/groups/taskhero";
  const page = "https://www.facebook.com/taskhero";
  expect(followUs({ FACEBOOK_COMMUNITY_URL: group, FACEBOOK_PAGE_URL: page })).toEqual({ href: group, kind: "community" });
  expect(followUs({ FACEBOOK_PAGE_URL: page })).toEqual({ href: page, kind: "page" });
  expect(followUs({})).toEqual({ href: "/news", kind: "news" });
});
