import { z } from "zod";
import { isLoopbackOrigin } from "./origin";
import { isIP } from "node:net";

/**
 * The one place environment variables are read. Every variable is validated at start-up;
 * a bad value stops the server with a message naming it (see docs/configuration.md).
 */
const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const flag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1");

const origin = z
  .url({ protocol: /^https?$/ })
  .transform((value) => new URL(value).origin);

const hostnameList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean),
  );

const emailList = hostnameList.pipe(z.array(z.email("必須是以逗號分隔的 email")));
/** "count/seconds", e.g. "30/60": the form of every RATE_LIMIT_* variable. */
export function parseFixedWindow(value: string): { max: number; windowSeconds: number } | null {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  if (!match) return null;
  const max = Number(match[1]);
  const windowSeconds = Number(match[2]);
  return max >= 1 && windowSeconds >= 1 ? { max, windowSeconds } : null;
}

/** An address ("10.0.0.7", "::1") or a CIDR range ("10.0.0.0/8", "fd00::/8"). */
export function isAddressOrRange(entry: string): boolean {
  const [address = "", prefix, extra] = entry.split("/");
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const milliseconds = (fallback: number) => z.coerce.number().int().min(100).max(600_000).default(fallback);

/** A rate limit written "count/seconds", e.g. "30/60" (docs/configuration.md). */
const fixedWindow = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      const window = parseFixedWindow(value);
      if (!window) ctx.addIssue({ code: "custom", message: "必須寫成「次數/秒數」，例如 30/60" });
      return window ?? { max: 1, windowSeconds: 1 };
    });

const proxyList = hostnameList.transform((entries, ctx) => {
  const invalid = entries.filter((entry) => !isAddressOrRange(entry));
  if (invalid.length) ctx.addIssue({ code: "custom", message: `不是 IP 位址或 CIDR 網段：${invalid.join(", ")}` });
  return entries;
});

const envSchema = z
  .object({
    PRODUCT_NAME: z.string().trim().min(1).default("任務小勇士"),
    SITE_URL: origin.default("http://localhost:3000"),
    APP_URL: origin.default("https://app.example.tw"),
    ALLOWED_HOSTNAMES: hostnameList,
    SUPPORT_EMAIL: z.email().default("support@example.tw"),
    FACEBOOK_PAGE_URL: z.url().default("https://www.facebook.com/"),
    FACEBOOK_COMMUNITY_URL: z.url().default("https://www.facebook.com/groups/"),
    YOUTUBE_URL: z.url().default("https://www.youtube.com/"),
    BLOG_SALON_URL: z.url().default("https://vocus.cc/"),
    FEEDBACK_FORM_URL: z.url().default("https://forms.gle/"),
    THEME_COLOR: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, "必須是 #RRGGBB 格式的顏色")
      .default("#4a6bff"),
    GA_MEASUREMENT_ID: optionalText.pipe(
      z.string().regex(/^G-[A-Z0-9]+$/, "必須像 G-XXXXXXX").optional(),
    ),

    // Unset: 127.0.0.1 on a loopback SITE_URL (the development mailbox and sign-in stay off the network),
    // 0.0.0.0 otherwise.
    HOST: optionalText,
    // 0 picks a free port (the start-up line names it).
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    DATA_DIR: z.string().default("data"),
    BUILD_DIR: z.string().default("build"),
    DATABASE_URL: optionalText.pipe(
      z.url({ protocol: /^postgres(ql)?$/ }).optional(),
    ),
    REDIS_URL: optionalText.pipe(z.url({ protocol: /^rediss?$/ }).optional()),
    // Addresses or CIDR ranges (10.0.0.0/8, fd00::/8) of the reverse proxies in front of the site.
    TRUSTED_PROXIES: proxyList,
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    SQLITE_SYNCHRONOUS: z.enum(["NORMAL", "FULL"]).default("NORMAL"),
    DATABASE_CONNECT_TIMEOUT_MS: milliseconds(3_000),
    DATABASE_STATEMENT_TIMEOUT_MS: milliseconds(3_000),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    // Every key the site writes starts with it, so several sites (or tests) can share one Redis.
    REDIS_KEY_PREFIX: z.string().regex(/^[\w:.-]{1,64}$/, "只能包含英數字與 : . - _").default("rate-limit:"),
    REDIS_CONNECT_TIMEOUT_MS: milliseconds(2_000),
    REDIS_COMMAND_TIMEOUT_MS: milliseconds(2_000),
    SHUTDOWN_TIMEOUT_MS: milliseconds(10_000),
    // Rate limits, "count/seconds" generous per address, since a family or a school shares one.
    RATE_LIMIT_AUTH_PER_IP: fixedWindow("300/60"),
    RATE_LIMIT_SIGN_IN_PER_IP: fixedWindow("30/60"),
    RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT: fixedWindow("10/900"),
    RATE_LIMIT_SIGN_UP_PER_IP: fixedWindow("30/3600"),
    RATE_LIMIT_SIGN_UP_PER_ACCOUNT: fixedWindow("5/3600"),
    RATE_LIMIT_GUEST_PER_IP: fixedWindow("30/3600"),
    RATE_LIMIT_GUEST_UPGRADE_PER_ACCOUNT: fixedWindow("5/3600"),
    RATE_LIMIT_MAIL_PER_IP: fixedWindow("30/3600"),
    RATE_LIMIT_PASSWORD_RESET_PER_ACCOUNT: fixedWindow("3/3600"),
    RATE_LIMIT_VERIFICATION_MAIL_PER_ACCOUNT: fixedWindow("5/3600"),
    RATE_LIMIT_ANALYTICS_PER_IP: fixedWindow("60/60"),
    // File storage writes (uploads, upload chunks, metadata changes; deletions are never limited).
    RATE_LIMIT_STORAGE_WRITES_PER_ACCOUNT: fixedWindow("120/600"),
    RATE_LIMIT_STORAGE_WRITES_PER_IP: fixedWindow("300/600"),
    RATE_LIMIT_MAX_KEYS: z.coerce.number().int().min(1_000).max(10_000_000).default(100_000),

    AUTH_SECRET: optionalText.pipe(z.string().min(32).optional()),
    COOKIE_DOMAIN: optionalText,
    SESSION_IDLE_DAYS: z.coerce.number().min(0.01).max(365).default(7),
    SESSION_ABSOLUTE_DAYS: z.coerce.number().min(0.01).max(365).default(30),
    // Verified accounts with these emails become editors (developer blog, wishing well); see docs/configuration.md.
    EDITOR_EMAILS: emailList,
    // ASVS 5.0 L2 asks for 8; never below the original's 6.
    PASSWORD_MIN_LENGTH: z.coerce.number().int().min(6).max(128).default(8),
    PASSWORD_MAX_LENGTH: z.coerce.number().int().min(6).max(128).default(128),
    PASSWORD_REQUIRE_LOWERCASE: flag,
    PASSWORD_REQUIRE_UPPERCASE: flag,
    PASSWORD_REQUIRE_DIGIT: flag,
    PASSWORD_REQUIRE_SYMBOL: flag,

    SMTP_HOST: optionalText,
    SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
    SMTP_SECURE: flag,
    SMTP_USER: optionalText,
    SMTP_PASSWORD: optionalText,
    MAIL_FROM: optionalText,

    // File storage (docs/storage.md): the bucket name of the v0 protocol, the driver, and the limits.
    STORAGE_BUCKET: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, "只能使用小寫英文字母、數字、點、底線與連字號")
      .default("default"),
    STORAGE_DRIVER: z.enum(["local", "s3"]).default("local"),
    STORAGE_MAX_UPLOAD_BYTES: z.coerce.number().int().min(1024).default(5 * 1024 * 1024),
    STORAGE_USER_QUOTA_BYTES: z.coerce.number().int().min(1024).default(100 * 1024 * 1024),
    STORAGE_MAX_IMAGE_SIDE: z.coerce.number().int().min(64).max(16384).default(2048),
    STORAGE_MAX_OPEN_UPLOADS: z.coerce.number().int().min(1).max(1000).default(5),
    // Uploads stop while less than this stays free on DATA_DIR's disk (the database keeps room); 0 turns it off.
    STORAGE_MIN_FREE_BYTES: z.coerce.number().int().min(0).default(100 * 1024 * 1024),
    STORAGE_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
    STORAGE_ORPHAN_GRACE_SECONDS: z.coerce.number().int().min(0).max(604_800).default(900),
    S3_BUCKET: optionalText,
    S3_REGION: z.string().trim().min(1).default("auto"),
    S3_ENDPOINT: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    S3_FORCE_PATH_STYLE: flag,
    S3_PREFIX: z.string().trim().default(""),

    GOOGLE_CLIENT_ID: optionalText,
    GOOGLE_CLIENT_SECRET: optionalText,
    FACEBOOK_CLIENT_ID: optionalText,
    FACEBOOK_CLIENT_SECRET: optionalText,
    LINE_CLIENT_ID: optionalText,
    LINE_CLIENT_SECRET: optionalText,
  })
  .superRefine((env, ctx) => {
    const loopback = isLoopbackOrigin(env.SITE_URL);
    if (!loopback && !env.SMTP_HOST) {
      ctx.addIssue({
        code: "custom",
        path: ["SMTP_HOST"],
        message: "公開的 SITE_URL 需要設定 SMTP_HOST、SMTP_USER、SMTP_PASSWORD、MAIL_FROM 才能寄信",
      });
    }
    if (!loopback && !env.AUTH_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_SECRET"],
        message: "公開的 SITE_URL 需要至少 32 個字元的 AUTH_SECRET",
      });
    }
    if (!loopback && new URL(env.APP_URL).hostname.endsWith("example.tw")) {
      // The app's origin is trusted by the sign-in layer (pop-ups, redirects): never a placeholder in production.
      ctx.addIssue({ code: "custom", path: ["APP_URL"], message: "公開的 SITE_URL 需要設定正式的 APP_URL（不可使用範例網址）" });
    }
    if (env.SESSION_ABSOLUTE_DAYS < env.SESSION_IDLE_DAYS) {
      ctx.addIssue({ code: "custom", path: ["SESSION_ABSOLUTE_DAYS"], message: "不可小於 SESSION_IDLE_DAYS" });
    }
    if (env.PASSWORD_MAX_LENGTH < env.PASSWORD_MIN_LENGTH) {
      ctx.addIssue({
        code: "custom",
        path: ["PASSWORD_MAX_LENGTH"],
        message: "不可小於 PASSWORD_MIN_LENGTH",
      });
    }
    if (env.STORAGE_DRIVER === "s3" && !env.S3_BUCKET) {
      ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "STORAGE_DRIVER=s3 需要設定 S3_BUCKET" });
    }
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: ["S3_SECRET_ACCESS_KEY"],
        message: "S3_ACCESS_KEY_ID 與 S3_SECRET_ACCESS_KEY 必須一起設定",
      });
    }
    for (const provider of ["GOOGLE", "FACEBOOK", "LINE"] as const) {
      if (Boolean(env[`${provider}_CLIENT_ID`]) !== Boolean(env[`${provider}_CLIENT_SECRET`])) {
        ctx.addIssue({
          code: "custom",
          path: [`${provider}_CLIENT_SECRET`],
          message: `${provider}_CLIENT_ID 與 ${provider}_CLIENT_SECRET 必須一起設定`,
        });
      }
    }
  });

export type ServerEnv = ReturnType<typeof parseEnv>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses a set of variables; throws a ConfigError naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined>) {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  ${issue.path.join(".") || "(環境變數)"}: ${issue.message}`,
    );
    throw new ConfigError(`設定錯誤，伺服器無法啟動：\n${lines.join("\n")}`);
  }
  const env = result.data;
  const siteHost = new URL(env.SITE_URL).hostname;
  const isLoopbackSite = isLoopbackOrigin(env.SITE_URL);
  // localhost and 127.0.0.1 are trusted only while the site itself runs on this machine.
  const allowedHostnames = env.ALLOWED_HOSTNAMES.length
    ? env.ALLOWED_HOSTNAMES
    : [...new Set([siteHost, `app.${siteHost}`, ...(isLoopbackSite ? ["localhost", "127.0.0.1"] : [])])];
  return {
    ...env,
    HOST: env.HOST ?? (isLoopbackSite ? "127.0.0.1" : "0.0.0.0"),
    allowedHostnames,
    /** Development stand-ins (mailbox, identity provider) exist only on a loopback origin. */
    isLoopbackSite,
  };
}

let cached: ServerEnv | undefined;

/** The validated environment of this process (parsed once). */
export function getEnv(): ServerEnv {
  cached ??= parseEnv(process.env);
  return cached;
}
