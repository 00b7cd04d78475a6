import { z } from "zod";
import { isLoopbackHost, isLoopbackOrigin } from "./origin";
import { isIP } from "node:net";
import { createPrivateKey } from "node:crypto";

/**
 * The one place environment variables are read. Every variable is validated at start-up;
 * a bad value stops the server with a message naming it (see docs/configuration.md).
 */
const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const optionalUrl = optionalText.pipe(z.url({ protocol: /^https?$/ }).optional());

/** A PKCS #8 private key in PEM (Apple's .p8 file), checked to be one at start-up rather than at the first sign-in. */
const applePrivateKey = z
  .string()
  .refine((value) => {
    try {
      return createPrivateKey(value).asymmetricKeyType === "ec";
    } catch {
      return false;
    }
  }, "APPLE_PRIVATE_KEY 必須是 Apple 的 .p8 金鑰內容（-----BEGIN PRIVATE KEY----- 開頭）")
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

/** A variable holding JSON (unset or empty: undefined). */
const jsonText = optionalText.transform((value, ctx) => {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    ctx.addIssue({ code: "custom", message: "必須是有效的 JSON" });
    return z.NEVER;
  }
});

/** A URL without a fragment or credentials, or null: what an app may register as an address of its own. */
function plainUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.hash || url.username || url.password ? null : url;
  } catch {
    return null;
  }
}

/**
 * A redirect URI an app may register (RFC 8252): https (a web app, or a native app's claimed https link), a
 * private-use scheme written as a reverse domain name without a host (`tw.example.app:/callback`), or http on a
 * loopback address (a native app: any port is accepted at run time).
 */
export function isRegistrableRedirect(value: string): boolean {
  const url = plainUrl(value);
  if (!url) return false;
  if (url.protocol === "https:") return true;
  // Plain http only where no network sees it: loopback, and the names RFC 6761 keeps out of public DNS (tests).
  if (url.protocol === "http:") return ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname) || /\.(test|localhost)$/.test(url.hostname);
  return /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+:$/.test(url.protocol) && !value.slice(url.protocol.length).startsWith("//");
}

const redirectUri = z.string().refine(isRegistrableRedirect, "必須是 https、本機 http（127.0.0.1）或反向網域名稱的自訂 scheme（例如 tw.example.app:/callback）");

/** One app registered with the site's OpenID provider (docs/configuration.md, OIDC_CLIENTS). */
const oidcClient = z.strictObject({
  client_id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "client_id 只能包含英數字與 . _ -"),
  client_name: z.string().trim().min(1).max(60).optional(),
  redirect_uris: z.array(redirectUri).min(1),
  post_logout_redirect_uris: z.array(redirectUri).default([]),
  /** A public client (a native or browser app) has no secret and must use PKCE. */
  public: z.boolean().default(true),
  /** Our own app: no consent screen. */
  first_party: z.boolean().default(false),
  /** Listing the device grant lets the app join a child's tablet by QR code (RFC 8628; docs/app-integration.md). */
  // The token exchange (RFC 8693) lets an app installed before the switch trade its Firebase sign-in (docs/migrating-from-firebase.md).
  grant_types: z.array(z.enum(["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code", "urn:ietf:params:oauth:grant-type:token-exchange"])).optional(),
  /** Where the app's backend hears that a sign-in ended (OpenID Connect Back-Channel Logout 1.0): https, or http on loopback. */
  backchannel_logout_uri: z.string().refine(isServerAddress, "必須是 https，或本機（127.0.0.1、[::1]、localhost）的 http 位址，且不含 #").optional(),
});

/** A back-channel address: a server's, so https, or plain http on this machine only (development). */
function isServerAddress(value: string): boolean {
  const url = plainUrl(value);
  if (!url) return false;
  return url.protocol === "https:" || (url.protocol === "http:" && ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname));
}

/** The app's APIs that accept JWT access tokens (RFC 8707 resource indicators): absolute https URIs, or http on loopback. */
const resourceList = z
  .string()
  .optional()
  .transform((value) => (value ?? "").split(",").map((item) => item.trim()).filter(Boolean))
  .pipe(z.array(z.string().refine(isServerAddress, "每個資源必須是 https（或本機 http）的絕對位址，且不含 #")));

const oidcClientList = z
  .array(oidcClient)
  .optional()
  .default([])
  .refine((list) => new Set(list.map((client) => client.client_id)).size === list.length, "client_id 不可重複")
  // `partner-web` and `partner.web` would read one secret variable: an id must not be mistaken for another.
  .refine((list) => new Set(list.map((client) => clientSecretVariable(client.client_id))).size === list.length, "client_id 不可只差在大小寫或 . _ -（會共用同一個金鑰變數）");

/** The private signing keys, as a JSON Web Key Set (`{"keys":[…]}`), each with `d`, `kid` and an `alg` of ES256 or RS256. */
const privateKeySet = z
  .strictObject({
    keys: z
      .array(z.looseObject({ kid: z.string().min(1), alg: z.enum(["ES256", "RS256"]), d: z.string().min(1) }))
      .min(1),
  })
  .optional();

/** The variable that holds a confidential client's secret: OIDC_CLIENT_SECRET_ and its id in capitals, `-`/`.` as `_`. */
export function clientSecretVariable(clientId: string): string {
  return `OIDC_CLIENT_SECRET_${clientId.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

const envSchema = z
  .object({
    PRODUCT_NAME: z.string().trim().min(1).default("任務小勇士"),
    SITE_URL: origin.default("http://localhost:3000"),
    // Unset: no link leads to the app (立即開始 opens sign-up, 進入應用程式 is hidden).
    APP_URL: optionalText.pipe(origin.optional()),
    ALLOWED_HOSTNAMES: hostnameList,
    SUPPORT_EMAIL: z.email().default("support@example.tw"),
    // The project's own pages elsewhere. Unset, the link is not shown (a link to a site's home page pretends).
    FACEBOOK_PAGE_URL: optionalUrl,
    // Where 追蹤我們 leads. Unset: the Facebook page if there is one, else the site's own 最新消息 (never a made-up group).
    FACEBOOK_COMMUNITY_URL: optionalUrl,
    YOUTUBE_URL: optionalUrl,
    BLOG_SALON_URL: optionalUrl,
    FEEDBACK_FORM_URL: optionalUrl,
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
    // Each request's deadline: past it the answer is 503 and the request opens no more database connections.
    REQUEST_DEADLINE_MS: milliseconds(5_000),
    // Anonymous renders of database pages (decision 702): seconds an entry lives (0 turns the cache off), its bounds.
    // Worker processes sharing the port (server.mjs): "auto" is one per core on PostgreSQL, one process on SQLite
    // (decision 608). The primary hands each worker the resolved count and its number (1 runs the mail outbox;
    // decision 703). Empty (`WEB_CONCURRENCY=`) is unset, so "auto", on either database (server.mjs reads it so too).
    WEB_CONCURRENCY: z.preprocess(
      (value) => (typeof value === "string" && value.trim() === "" ? undefined : typeof value === "string" ? value.trim() : value),
      z.union([z.literal("auto"), z.coerce.number().int().min(1).max(64)]).default("auto"),
    ),
    WEB_CONCURRENCY_WORKER: z.coerce.number().int().min(0).max(64).default(0),
    PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(10),
    PAGE_CACHE_MAX_ENTRIES: z.coerce.number().int().min(1).max(100_000).default(200),
    PAGE_CACHE_MAX_MB: z.coerce.number().int().min(1).max(4096).default(16),
    // The build's files and prerendered pages answered in front of Hono (server/memory-answers.ts); "off" sends them
    // through the middleware chain, which answers the same bytes (the test of the two paths compares them).
    MEMORY_ANSWERS: z.enum(["on", "off"]).default("on"),
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
    // Wrong or expired codes typed at /device (a child's tablet): per address and per signed-in parent.
    RATE_LIMIT_DEVICE_CODE_PER_IP: fixedWindow("20/600"),
    RATE_LIMIT_DEVICE_CODE_PER_ACCOUNT: fixedWindow("5/600"),
    // File storage writes (uploads, upload chunks, metadata changes; deletions are never limited).
    RATE_LIMIT_STORAGE_WRITES_PER_ACCOUNT: fixedWindow("120/600"),
    RATE_LIMIT_STORAGE_WRITES_PER_IP: fixedWindow("300/600"),
    // Text messages (phone sign-in): per address, per number (an hour and a day), and the site's daily cap.
    RATE_LIMIT_SMS_PER_IP: fixedWindow("10/3600"),
    RATE_LIMIT_SMS_PER_NUMBER: fixedWindow("3/3600"),
    RATE_LIMIT_SMS_PER_NUMBER_DAILY: fixedWindow("10/86400"),
    SMS_DAILY_LIMIT: z.coerce.number().int().min(1).max(10_000_000).default(1000),
    // ISO 3166 codes of the countries besides Taiwan whose numbers may sign in (phone-number.ts).
    SMS_ALLOWED_COUNTRIES: hostnameList.transform((codes) => codes.map((code) => code.toUpperCase())),
    // Where texts go (sms-gateways.server.ts): the development mailbox by default on a loopback site.
    SMS_PROVIDER: z.enum(["mailbox", "mitake", "every8d", "twilio"]).optional(),
    MITAKE_URL: optionalUrl.default("https://smsapi.mitake.com.tw"),
    MITAKE_USERNAME: optionalText,
    MITAKE_PASSWORD: optionalText,
    EVERY8D_URL: optionalUrl.default("https://oms.every8d.com"),
    EVERY8D_UID: optionalText,
    EVERY8D_PWD: optionalText,
    TWILIO_URL: optionalUrl.default("https://verify.twilio.com"),
    TWILIO_ACCOUNT_SID: optionalText,
    TWILIO_AUTH_TOKEN: optionalText,
    TWILIO_VERIFY_SERVICE_SID: optionalText,
    // The bot check before sign-up, a guest, a text, an emailed link and a reset mail (bot-check.server.ts).
    BOT_CHECK: z.enum(["proof-of-work", "turnstile", "recaptcha", "off"]).default("proof-of-work"),
    // Signs the proof-of-work challenges; unset, derived from AUTH_SECRET.
    BOT_CHECK_SECRET: optionalText.pipe(z.string().min(32).optional()),
    // Hashes a browser tries on average, about half the most (a phone solves 100 000 in well under a second).
    BOT_CHECK_WORK: z.coerce.number().int().min(1).max(10_000_000).default(30_000),
    // Forms sent without JavaScript (no solved challenge) from one address.
    RATE_LIMIT_NO_SCRIPT_PER_IP: fixedWindow("5/3600"),
    TURNSTILE_SITE_KEY: optionalText,
    TURNSTILE_SECRET_KEY: optionalText,
    TURNSTILE_VERIFY_URL: optionalUrl.default("https://challenges.cloudflare.com/turnstile/v0/siteverify"),
    RECAPTCHA_SITE_KEY: optionalText,
    RECAPTCHA_SECRET_KEY: optionalText,
    RECAPTCHA_VERIFY_URL: optionalUrl.default("https://www.google.com/recaptcha/api/siteverify"),
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
    // A file of this size kept in DATA_DIR, given back when the disk is full so deletions still work; 0: none.
    STORAGE_DISK_RESERVE_BYTES: z.coerce.number().int().min(0).default(8 * 1024 * 1024),
    STORAGE_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
    STORAGE_ORPHAN_GRACE_SECONDS: z.coerce.number().int().min(0).max(604_800).default(900),
    S3_BUCKET: optionalText,
    S3_REGION: z.string().trim().min(1).default("auto"),
    S3_ENDPOINT: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    S3_FORCE_PATH_STYLE: flag,
    S3_PREFIX: z.string().trim().default(""),

    // The app's sign-in (docs/app-integration.md): the registered clients, the signing keys, the lifetimes.
    OIDC_CLIENTS: jsonText.pipe(oidcClientList),
    OIDC_JWKS: jsonText.pipe(privateKeySet),
    // Leaving Firebase: the project whose ID tokens an app may exchange for ours, and where Google serves their keys.
    FIREBASE_PROJECT_ID: optionalText.pipe(z.string().regex(/^[a-z0-9-]{4,40}$/, "必須是 Firebase 專案 ID（小寫英數字與 -）").optional()),
    FIREBASE_JWKS_URL: z.url({ protocol: /^https?$/ }).default("https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"),
    OIDC_ACCESS_TOKEN_MINUTES: z.coerce.number().int().min(1).max(60).default(10),
    OIDC_RESOURCES: resourceList,

    GOOGLE_CLIENT_ID: optionalText,
    GOOGLE_CLIENT_SECRET: optionalText,
    FACEBOOK_CLIENT_ID: optionalText,
    FACEBOOK_CLIENT_SECRET: optionalText,
    LINE_CLIENT_ID: optionalText,
    LINE_CLIENT_SECRET: optionalText,
    // Sign in with Apple (docs/auth.md): the Services ID, the team, and the .p8 key that signs the client secret.
    APPLE_CLIENT_ID: optionalText,
    APPLE_TEAM_ID: optionalText.pipe(z.string().regex(/^[A-Z0-9]{10}$/, "Apple 的 Team ID 是 10 個英文大寫字母或數字").optional()),
    APPLE_KEY_ID: optionalText.pipe(z.string().regex(/^[A-Z0-9]{10}$/, "Apple 的 Key ID 是 10 個英文大寫字母或數字").optional()),
    // The .p8 file's text; a one-line value may write its line breaks as \n.
    APPLE_PRIVATE_KEY: optionalText.transform((value) => value?.replace(/\\n/g, "\n")).pipe(applePrivateKey),
    // Where Apple's sign-in, token, keys and revocation addresses are (a local stand-in in tests).
    APPLE_URL: optionalUrl.default("https://appleid.apple.com").transform((value) => value.replace(/\/+$/, "")),

    // The security record (docs/operations.md): rows older than this many days are removed (five years by default).
    AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(1830),
    // Prometheus metrics on a port of their own (0: none), on loopback unless METRICS_HOST says otherwise.
    METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(9464),
    METRICS_HOST: z.string().default("127.0.0.1"),
    // With it, /metrics asks for `Authorization: Bearer <token>` (required when METRICS_HOST is not loopback).
    METRICS_TOKEN: optionalText.pipe(z.string().min(16).optional()),
  })
  .superRefine((env, ctx) => {
    if (env.METRICS_PORT && !isLoopbackHost(env.METRICS_HOST) && !env.METRICS_TOKEN) {
      ctx.addIssue({ code: "custom", path: ["METRICS_TOKEN"], message: "METRICS_HOST 不是本機位址時必須設定 METRICS_TOKEN" });
    }
    const loopback = isLoopbackOrigin(env.SITE_URL);
    if (!loopback && !env.SMTP_HOST) {
      ctx.addIssue({
        code: "custom",
        path: ["SMTP_HOST"],
        message: "公開的 SITE_URL 需要設定 SMTP_HOST、SMTP_USER、SMTP_PASSWORD、MAIL_FROM 才能寄信",
      });
    }
    if (loopback && env.HOST && !isLoopbackHost(env.HOST)) {
      // On a loopback SITE_URL the development mailbox and sign-in are on: they hand out every link and sign
      // anyone in, so they must never listen on the network.
      ctx.addIssue({
        code: "custom",
        path: ["HOST"],
        message: "SITE_URL 是本機網址時會啟用開發用信箱與測試登入，HOST 只能是 127.0.0.1、::1 或 localhost",
      });
    }
    // A gateway needs its credentials; the development mailbox hands every code out, so only a loopback site has it.
    const smsNeeds = { mailbox: [], mitake: ["MITAKE_USERNAME", "MITAKE_PASSWORD"], every8d: ["EVERY8D_UID", "EVERY8D_PWD"], twilio: ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_VERIFY_SERVICE_SID"] } as const;
    for (const name of env.SMS_PROVIDER ? smsNeeds[env.SMS_PROVIDER] : []) {
      if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: `SMS_PROVIDER=${env.SMS_PROVIDER} 需要設定 ${name}` });
    }
    if (!loopback && env.SMS_PROVIDER === "mailbox") {
      ctx.addIssue({ code: "custom", path: ["SMS_PROVIDER"], message: "公開的 SITE_URL 不能把簡訊放進開發用信箱，請設定 mitake、every8d 或 twilio" });
    }
    // A provider's check needs its keys; only a loopback site may go without any check (tests, development).
    const botCheckNeeds = { "proof-of-work": [], off: [], turnstile: ["TURNSTILE_SITE_KEY", "TURNSTILE_SECRET_KEY"], recaptcha: ["RECAPTCHA_SITE_KEY", "RECAPTCHA_SECRET_KEY"] } as const;
    for (const name of botCheckNeeds[env.BOT_CHECK]) {
      if (!env[name]) ctx.addIssue({ code: "custom", path: [name], message: `BOT_CHECK=${env.BOT_CHECK} 需要設定 ${name}` });
    }
    if (!loopback && env.BOT_CHECK === "off") {
      ctx.addIssue({ code: "custom", path: ["BOT_CHECK"], message: "公開的 SITE_URL 不能關閉機器人檢查，請用 proof-of-work、turnstile 或 recaptcha" });
    }
    if (!loopback && !env.AUTH_SECRET) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_SECRET"],
        message: "公開的 SITE_URL 需要至少 32 個字元的 AUTH_SECRET",
      });
    }
    if (!loopback && env.APP_URL && new URL(env.APP_URL).hostname.endsWith("example.tw")) {
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
    const apple = ["APPLE_CLIENT_ID", "APPLE_TEAM_ID", "APPLE_KEY_ID", "APPLE_PRIVATE_KEY"] as const;
    if (apple.some((name) => env[name]) && !apple.every((name) => env[name])) {
      ctx.addIssue({ code: "custom", path: [apple.find((name) => !env[name]) ?? "APPLE_CLIENT_ID"], message: "APPLE_CLIENT_ID、APPLE_TEAM_ID、APPLE_KEY_ID、APPLE_PRIVATE_KEY 必須一起設定" });
    }
    if (!loopback && !env.APPLE_URL.startsWith("https://")) {
      ctx.addIssue({ code: "custom", path: ["APPLE_URL"], message: "公開的 SITE_URL 只能以 https 連到 Apple" });
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
  // A confidential client's secret comes from a variable of its own, never from the JSON list.
  const oidcClients = env.OIDC_CLIENTS.map((client) => ({ ...client, client_secret: client.public ? undefined : source[clientSecretVariable(client.client_id)]?.trim() }));
  const missingSecrets = oidcClients.filter((client) => !client.public && (client.client_secret?.length ?? 0) < 32);
  if (missingSecrets.length) {
    const lines = missingSecrets.map((client) => `  ${clientSecretVariable(client.client_id)}: 非公開的應用程式 ${client.client_id} 需要至少 32 個字元的金鑰`);
    throw new ConfigError(`設定錯誤，伺服器無法啟動：\n${lines.join("\n")}`);
  }
  const siteHost = new URL(env.SITE_URL).hostname;
  const isLoopbackSite = isLoopbackOrigin(env.SITE_URL);
  // localhost and 127.0.0.1 are trusted only while the site itself runs on this machine.
  const allowedHostnames = env.ALLOWED_HOSTNAMES.length
    ? env.ALLOWED_HOSTNAMES
    : [...new Set([siteHost, `app.${siteHost}`, ...(isLoopbackSite ? ["localhost", "127.0.0.1"] : [])])];
  return {
    ...env,
    ...perWorkerLimits(env),
    HOST: env.HOST ?? (isLoopbackSite ? "127.0.0.1" : "0.0.0.0"),
    allowedHostnames,
    /** Development stand-ins (mailbox, identity provider) exist only on a loopback origin. */
    isLoopbackSite,
    /** OIDC_CLIENTS with each confidential client's secret read from its own variable. */
    oidcClients,
  };
}

/**
 * In a cluster worker without Redis, each worker counts on its own: every RATE_LIMIT_* is split between the
 * workers (rounded up), so all of them together never allow more than the configured count (decision 703).
 */
function perWorkerLimits(env: z.infer<typeof envSchema>): Partial<z.infer<typeof envSchema>> {
  const workers = env.WEB_CONCURRENCY === "auto" ? 1 : env.WEB_CONCURRENCY;
  if (!env.WEB_CONCURRENCY_WORKER || workers <= 1 || env.REDIS_URL) return {};
  const split: Record<string, { max: number; windowSeconds: number }> = {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith("RATE_LIMIT_") && typeof value === "object" && value && "max" in value) {
      split[name] = { ...value, max: Math.ceil(value.max / workers) };
    }
  }
  return split as Partial<z.infer<typeof envSchema>>;
}

let cached: ServerEnv | undefined;

/** The validated environment of this process (parsed once). */
export function getEnv(): ServerEnv {
  cached ??= parseEnv(process.env);
  return cached;
}
