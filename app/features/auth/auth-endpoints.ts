import type { ServerEnv } from "~/config/env.server";
import type { AuthErrorCode } from "./auth-error-messages";
import * as sharedPaths from "./auth-paths";
import { endpointRows, type WayIn } from "./way-in";
import { passwordWayIn } from "./ways-in/password/password";
import { socialWayIn } from "./ways-in/social/social";
import { guestWayIn } from "./ways-in/guest/guest";
import { emailLinkWayIn } from "./ways-in/email-link/email-link";
import { passkeyWayIn } from "./ways-in/passkey/passkey";
import { phoneWayIn } from "./ways-in/phone/phone";
import { emailCodeWayIn } from "./ways-in/email-code/email-code";

/**
 * The one table of the sign-in layer's endpoints (everything under /api/auth): Better Auth's own and those of
 * every plugin. The rules around them — rate limits, the lockout, the sign-in rules, ending the presented
 * session, the pop-up page's COOP, the error catalogue, the audit log and which paths answer at all — read this
 * table and nothing else, so a new way to sign in is one more unit (CONTRIBUTING.md, "Add a way in").
 * `tests/integration/auth-endpoints.test.ts` compares it with the live endpoints of the auth instance.
 */

export { authBasePath } from "./auth-paths";
type PathName = Exclude<keyof typeof authPaths, "authBasePath">;
/** A path of the table: what the callers of the sign-in layer's API take, so a path without a row fails typecheck. */
export type AuthPath = (typeof authPaths)[PathName];

/** The RATE_LIMIT_* variables that hold a "count/seconds" window (docs/configuration.md). */
export type RateLimitName = {
  [K in keyof ServerEnv]: ServerEnv[K] extends { max: number; windowSeconds: number } ? K : never;
}[keyof ServerEnv];

export interface AuthEndpoint {
  /** Better Auth's path pattern under /api/auth (`:name` is one path segment). */
  path: string;
  methods: readonly ("GET" | "POST")[];
  /**
   * What it does to the browser's session cookie. `creates`: a sign-in (maybe as someone else): the session the
   * browser presented ends (ASVS 7.2.4) and the sign-in is audited. `renews`: the same user's session gets a new
   * cookie. `ends`: sessions end. `none`: no session cookie is ever set (a guard refuses one that is).
   */
  session: "creates" | "renews" | "ends" | "none";
  /** Which session it needs (Better Auth's middleware; the test checks the row against it). */
  needs: "nothing" | "session" | "authoritative-session" | "fresh-session";
  /**
   * Whose pages may POST to it, checked before any plugin runs (auth-origin.server.ts): `site`, this site's own
   * (a foreign Origin, `Origin: null` or `Sec-Fetch-Site: cross-site` answers 403); `provider`, also a social
   * provider's sign-in page, which posts its answer to the callback (Apple's form_post). Required of every row, so a
   * plugin endpoint never skips it (Better Auth checks the Origin of its core routes only, and only with a cookie).
   */
  origin: "site" | "provider";
  /**
   * A secret (a password, a texted code, a signed-in account's two-step code) is tried: whose failures count toward
   * the account lockout (RATE_LIMIT_SIGN_IN_FAILURES_PER_ACCOUNT): the typed email, the typed number or the
   * signed-in account.
   */
  lockout?: "typed-email" | "phone-number" | "signed-in-user";
  /** Counted in the sign-in metrics (`site_sign_ins_total` by path and outcome, auth-logging.server.ts). */
  metric?: "sign-in";
  /** A session for an account whose email is not verified is refused (PRODUCT §5: only sign-up keeps one). */
  refuseUnverifiedEmail?: true;
  /** Per client address (Better Auth's limiter); without it RATE_LIMIT_AUTH_PER_IP. */
  perIp?: RateLimitName;
  /** Per typed email (or, with `perAccountBy`, per signed-in account), every attempt counting. */
  perAccount?: RateLimitName;
  /**
   * Whose count `perAccount` is: the body's `email` (default), the signed-in account's (its body names another
   * address) or the body's `phoneNumber` (as stored: phone-number.ts).
   */
  perAccountBy?: "signed-in-user" | "phone-number";
  /** The body field holding a new password: the password policy and the common-password list apply. */
  newPassword?: "password" | "newPassword";
  /** The body carries a display name (`name`): the display-name rules apply (display-name.ts). */
  displayName?: true;
  /** Deleting an account that has a password needs that password in the body. */
  passwordToDelete?: true;
  /**
   * A sensitive change (PRODUCT §3 account settings, the original's `requires-recent-login`): more than
   * RECENT_SIGN_IN_SECONDS after the session began it answers `auth/requires-recent-login` until the person confirms
   * who they are (recent-sign-in.server.ts). `{ passwordIn }`: a body whose field holds the account's password, which
   * the endpoint checks before it changes anything, is that confirmation itself.
   */
  recentSignIn?: true | { passwordIn: "currentPassword" | "password" };
  /** Proves one factor: with two-step sign-in on, it asks for the code before any session (two-step.server.ts). */
  oneFactor?: true;
  /** Checks an authenticator app's code: each code works once per account; signed in, a right one proves who it is (two-step.server.ts). */
  appCode?: true;
  /** Where an account begins: its browser is recorded as a known device without a notice (known-devices.server.ts). */
  startsAccount?: true;
  /** A verification link (its token in the query) that works once (single-use-links.server.ts). */
  singleUseLink?: true;
  /** The body may carry a profile photo (`image`): only a file of our own storage (sign-in-rules.server.ts). */
  photo?: true;
  /** The security notice its success may mail (account-notices.server.ts, two-step.server.ts). */
  notice?: "password-changed" | "email-changed" | "two-factor-disabled";
  /** The OAuth pop-up ends on this page, which posts to its opener: no Cross-Origin-Opener-Policy. */
  popupLanding?: true;
  /** Its own error codes onto the catalogue (on top of `sharedErrorCodes`). */
  errors?: Readonly<Record<string, AuthErrorCode>>;
  /** The audit log's event name (one JSON line per outcome, never the email or a password). */
  audit?: string;
  /** A bot check comes first: a solved challenge (or a provider's token), single use (bot-check.server.ts). */
  botCheck?: true;
  /** What the session it makes proves, as OpenID `amr` values (RFC 8176; sign-in-proof.server.ts). */
  proves?: readonly ("pwd" | "otp" | "mfa" | "sms")[];
  /**
   * The same endpoint used another way (a way in's row, way-in.ts): a request whose body `when` holds is held to
   * these rules instead (e.g. attaching a number to the signed-in account rather than signing in with it).
   */
  byRequest?: { when: (body: Readonly<Record<string, unknown>>) => boolean; rules: Partial<AuthEndpoint> };
}

type Rows = Readonly<Record<string, AuthEndpoint>>;
const post = ["POST"] as const;
const get = ["GET"] as const;

/** Better Auth's core endpoints (better-auth 1.7). */
const core = {
  getSession: { path: sharedPaths.getSession, methods: ["GET", "POST"], session: "renews", origin: "site", needs: "nothing" },
  signOut: { path: sharedPaths.signOut, methods: post, session: "ends", origin: "site", needs: "nothing", audit: "sign-out" },
  verifyEmail: { path: sharedPaths.verifyEmail, methods: get, singleUseLink: true, notice: "email-changed", session: "renews", origin: "site", needs: "nothing", audit: "email-verification" },
  // A mail to whoever asks: the bot check first, like a reset mail.
  sendVerificationEmail: { path: sharedPaths.sendVerificationEmail, methods: post, session: "none", origin: "site", needs: "nothing", perIp: "RATE_LIMIT_MAIL_PER_IP", perAccount: "RATE_LIMIT_VERIFICATION_MAIL_PER_ACCOUNT", botCheck: true },
  // Server-scoped in Better Auth, yet routed over HTTP: a password oracle, so limited and locked like a sign-in.
  verifyPassword: { path: sharedPaths.verifyPassword, methods: post, session: "none", origin: "site", needs: "authoritative-session", lockout: "signed-in-user", perIp: "RATE_LIMIT_SIGN_IN_PER_IP" },
  // A link to the new address; the account changes when it is opened (/verify-email). Same answer for a taken address.
  changeEmail: { path: sharedPaths.changeEmail, methods: post, session: "renews", origin: "site", needs: "authoritative-session", recentSignIn: true, perIp: "RATE_LIMIT_MAIL_PER_IP", perAccount: "RATE_LIMIT_VERIFICATION_MAIL_PER_ACCOUNT", perAccountBy: "signed-in-user", errors: { CHANGE_EMAIL_DISABLED: "auth/operation-not-allowed" }, audit: "email-change" },
  updateUser: { path: sharedPaths.updateUser, methods: post, photo: true, session: "renews", origin: "site", needs: "session", displayName: true },
  updateSession: { path: sharedPaths.updateSession, methods: post, session: "renews", origin: "site", needs: "session" },
  deleteUser: { path: sharedPaths.deleteUser, methods: post, session: "ends", origin: "site", needs: "authoritative-session", recentSignIn: { passwordIn: "password" }, passwordToDelete: true, errors: { PASSWORD_REQUIRED: "auth/missing-password" }, audit: "account-deletion" },
  deleteUserCallback: { path: sharedPaths.deleteUserCallback, methods: get, session: "ends", origin: "site", needs: "nothing", audit: "account-deletion" },
  listSessions: { path: sharedPaths.listSessions, methods: get, session: "none", origin: "site", needs: "fresh-session" },
  revokeSession: { path: sharedPaths.revokeSession, methods: post, session: "ends", origin: "site", needs: "authoritative-session", audit: "sessions-ended" },
  revokeSessions: { path: sharedPaths.revokeSessions, methods: post, session: "ends", origin: "site", needs: "authoritative-session", audit: "sessions-ended" },
  revokeOtherSessions: { path: sharedPaths.revokeOtherSessions, methods: post, session: "ends", origin: "site", needs: "authoritative-session", audit: "sessions-ended" },
  listAccounts: { path: sharedPaths.listAccounts, methods: get, session: "none", origin: "site", needs: "session" },
  unlinkAccount: { path: sharedPaths.unlinkAccount, methods: post, session: "none", origin: "site", needs: "fresh-session" },
  refreshToken: { path: sharedPaths.refreshToken, methods: post, session: "none", origin: "site", needs: "nothing" },
  getAccessToken: { path: sharedPaths.getAccessToken, methods: post, session: "none", origin: "site", needs: "nothing" },
  accountInfo: { path: sharedPaths.accountInfo, methods: get, session: "none", origin: "site", needs: "nothing" },
  ok: { path: sharedPaths.ok, methods: get, session: "none", origin: "site", needs: "nothing" },
  error: { path: sharedPaths.error, methods: get, session: "none", origin: "site", needs: "nothing" },
} as const satisfies Rows;

/** Our plugins: the identity record, the signed-in devices (identity-endpoint, device-sessions). */
const account = {
  me: { path: sharedPaths.me, methods: get, session: "none", origin: "site", needs: "nothing" },
  devices: { path: sharedPaths.devices, methods: get, session: "none", origin: "site", needs: "session" },
  devicesEnd: { path: sharedPaths.devicesEnd, methods: post, session: "ends", origin: "site", needs: "authoritative-session", audit: "sessions-ended" },
} as const satisfies Rows;

/**
 * The account center (/account): recent sign-in and its confirm step, sign-in methods, a first password, the
 * copy of one's data (recent-sign-in, sign-in-methods, account-data).
 */
const accountCenter = {
  // Renews: a new session for the same user (createdAt now), the old one ended inside the endpoint.
  confirmIdentity: { proves: ["pwd"], path: sharedPaths.confirmIdentity, methods: post, session: "renews", origin: "site", needs: "session", lockout: "signed-in-user", perIp: "RATE_LIMIT_SIGN_IN_PER_IP", audit: "identity-confirmation" },
  // Better Auth's limiter gives every path under /sign-in 3 requests per 10 s unless a row names a limit.
  signInMethods: { path: sharedPaths.signInMethods, methods: get, session: "none", origin: "site", needs: "session", perIp: "RATE_LIMIT_AUTH_PER_IP" },
  signInMethodsRemove: {
    path: sharedPaths.signInMethodsRemove,
    methods: post,
    session: "none",
    origin: "site", needs: "session",
    recentSignIn: true,
    perIp: "RATE_LIMIT_SIGN_IN_PER_IP",
    errors: { FAILED_TO_UNLINK_LAST_ACCOUNT: "auth/last-sign-in-method", ACCOUNT_NOT_FOUND: "auth/invalid-request" },
    audit: "sign-in-method-removal",
  },
  accountData: { path: sharedPaths.accountData, methods: get, session: "none", origin: "site", needs: "session", perIp: "RATE_LIMIT_SIGN_IN_PER_IP" },
} as const satisfies Rows;

/** The bot check's challenge (bot-check.server.ts): what a form solves before a row with `botCheck` takes it. */
const botCheck = {
  botCheckChallenge: { path: sharedPaths.botCheckChallenge, methods: get, session: "none", origin: "site", needs: "nothing" },
} as const satisfies Rows;

/** Short-lived signed tokens for file storage and the app (Better Auth's jwt plugin). */
const tokens = {
  jwks: { path: sharedPaths.jwks, methods: get, session: "none", origin: "site", needs: "nothing" },
  token: { path: sharedPaths.token, methods: get, session: "none", origin: "site", needs: "session" },
} as const satisfies Rows;

const twoStepErrors = {
  INVALID_CODE: "auth/invalid-verification-code",
  CODE_ALREADY_USED: "auth/code-already-used",
  INVALID_BACKUP_CODE: "auth/invalid-backup-code",
  INVALID_TWO_FACTOR_COOKIE: "auth/two-step-expired",
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: "auth/too-many-requests",
  ACCOUNT_TEMPORARILY_LOCKED: "auth/too-many-requests",
  TOTP_ALREADY_ENABLED: "auth/two-step-already-on",
  TOTP_NOT_ENABLED: "auth/two-step-off",
  TWO_FACTOR_NOT_ENABLED: "auth/two-step-off",
  OTP_NOT_CONFIGURED: "auth/operation-not-allowed",
  OTP_NOT_ENABLED: "auth/operation-not-allowed",
} as const satisfies Record<string, AuthErrorCode>;

/**
 * Two-step sign-in (Better Auth's two-factor plugin, two-step.server.ts). The forms that check the password count
 * toward the lockout, and take that password as the recent sign-in; the code pages are sign-ins (a pending sign-in
 * holds no session until the code is right).
 * Emailed one-time codes (`otp`) are not configured: those two answer `auth/operation-not-allowed`.
 */
const twoStep = {
  twoFactorEnable: { path: sharedPaths.twoFactorEnable, methods: post, session: "renews", origin: "site", needs: "session", recentSignIn: { passwordIn: "password" }, lockout: "signed-in-user", perIp: "RATE_LIMIT_SIGN_IN_PER_IP", errors: twoStepErrors, audit: "two-step-enrolment" },
  twoFactorDisable: { path: sharedPaths.twoFactorDisable, methods: post, notice: "two-factor-disabled", session: "renews", origin: "site", needs: "authoritative-session", recentSignIn: { passwordIn: "password" }, lockout: "signed-in-user", perIp: "RATE_LIMIT_SIGN_IN_PER_IP", errors: twoStepErrors, audit: "two-step-off" },
  twoFactorGetTotpUri: { path: sharedPaths.twoFactorGetTotpUri, methods: post, session: "none", origin: "site", needs: "session", lockout: "signed-in-user", perIp: "RATE_LIMIT_SIGN_IN_PER_IP", errors: twoStepErrors },
  twoFactorGenerateBackupCodes: { path: sharedPaths.twoFactorGenerateBackupCodes, methods: post, session: "none", origin: "site", needs: "session", recentSignIn: { passwordIn: "password" }, lockout: "signed-in-user", perIp: "RATE_LIMIT_SIGN_IN_PER_IP", errors: twoStepErrors },
  // Signed in, a right code is a proof of identity (it renews the session, two-step.server.ts): wrong ones count like wrong passwords.
  twoFactorVerifyTotp: { proves: ["otp", "mfa"], path: sharedPaths.twoFactorVerifyTotp, methods: post, appCode: true, session: "creates", origin: "site", needs: "nothing", lockout: "signed-in-user", perIp: "RATE_LIMIT_SIGN_IN_PER_IP", errors: twoStepErrors, audit: "two-step-code", metric: "sign-in" },
  twoFactorVerifyBackupCode: { proves: ["otp", "mfa"], path: sharedPaths.twoFactorVerifyBackupCode, methods: post, session: "creates", origin: "site", needs: "nothing", perIp: "RATE_LIMIT_SIGN_IN_PER_IP", errors: twoStepErrors, audit: "two-step-code", metric: "sign-in" },
  twoFactorSendOtp: { path: sharedPaths.twoFactorSendOtp, methods: post, session: "none", origin: "site", needs: "nothing", perIp: "RATE_LIMIT_MAIL_PER_IP", errors: twoStepErrors },
  twoFactorVerifyOtp: { proves: ["otp", "mfa"], path: sharedPaths.twoFactorVerifyOtp, methods: post, session: "creates", origin: "site", needs: "nothing", perIp: "RATE_LIMIT_SIGN_IN_PER_IP", errors: twoStepErrors, audit: "two-step-code", metric: "sign-in" },
} as const satisfies Rows;

/** The ways in (way-in.ts): each unit's rows, every rule decided. A new way in is one more unit here. */
export const waysIn = [passwordWayIn, socialWayIn, guestWayIn, emailLinkWayIn, passkeyWayIn, phoneWayIn, emailCodeWayIn] as const;
type UnionToIntersection<U> = (U extends unknown ? (each: U) => void : never) extends (all: infer I) => void ? I : never;
/** Every unit's rows by name, their names kept as types (so a path without its row still fails typecheck below). */
type RowsByName<Rows> = Rows extends unknown ? { [Name in keyof Rows]: AuthEndpoint } : never;
type WayInRows = UnionToIntersection<RowsByName<(typeof waysIn)[number]["rows"]>>;
const wayInRows = Object.assign({}, ...waysIn.map((unit: WayIn) => endpointRows(unit))) as WayInRows;
type PathsByName<Rows> = Rows extends unknown ? { [Name in keyof Rows]: Rows[Name] extends { path: infer Path } ? Path : never } : never;
/**
 * Every path by its endpoint's name: the shared ones (auth-paths.ts) and each unit's own (spelled in its unit).
 * Server code names endpoints through this; the browser imports auth-paths.ts (or a unit's path) directly.
 */
export const authPaths = {
  ...sharedPaths,
  ...Object.fromEntries(waysIn.flatMap((unit: WayIn) => Object.entries(unit.rows).map(([name, row]) => [name, row.path]))),
} as typeof sharedPaths & UnionToIntersection<PathsByName<(typeof waysIn)[number]["rows"]>>;
type CheckedPaths<Rows> = Rows extends unknown ? { [Name in keyof Rows]: Rows[Name] extends { botCheck: true; path: infer Path } ? Path : never }[keyof Rows] : never;
/** The paths whose rows ask for the bot check: a form's action must hand its answer on (callAuthApi). */
export type BotCheckedPath = CheckedPaths<(typeof waysIn)[number]["rows"] | typeof core>;

/** Every endpoint by name. A plugin's rows go in a group of their own above and are listed here. */
const rows = { ...core, ...wayInRows, ...account, ...accountCenter, ...botCheck, ...tokens, ...twoStep };

export type AuthEndpointName = keyof typeof rows;
/** A row by its name (the units' account-center entries name their rows). */
export const authEndpointNamed = (name: string): AuthEndpoint | undefined => (rows as Record<string, AuthEndpoint>)[name];
/** Every endpoint. */
export const authEndpoints: readonly AuthEndpoint[] = Object.values(rows);

// Every path has a row and every row its path: a name missing on either side fails typecheck here.
type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const everyPathHasItsRow: SameNames<AuthEndpointName, PathName> = true;
void everyPathHasItsRow;

/** Better Auth's error codes (and our plugins') onto the catalogue of the original §8, for every endpoint. */
export const sharedErrorCodes: Readonly<Record<string, AuthErrorCode>> = {
  INVALID_EMAIL_OR_PASSWORD: "auth/invalid-credential",
  INVALID_PASSWORD: "auth/invalid-credential",
  USER_NOT_FOUND: "auth/invalid-credential",
  CREDENTIAL_ACCOUNT_NOT_FOUND: "auth/invalid-credential",
  EMAIL_NOT_VERIFIED: "email-not-verified",
  USER_ALREADY_EXISTS: "auth/email-already-in-use",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "auth/email-already-in-use",
  PASSWORD_TOO_SHORT: "auth/weak-password",
  PASSWORD_TOO_LONG: "auth/weak-password",
  WEAK_PASSWORD: "auth/weak-password",
  INVALID_EMAIL: "auth/invalid-email",
  INVALID_TOKEN: "auth/invalid-action-code",
  TOKEN_EXPIRED: "auth/invalid-action-code",
  INVALID_ORIGIN: "auth/unauthorized-domain",
  MISSING_OR_NULL_ORIGIN: "auth/unauthorized-domain",
  INVALID_CALLBACK_URL: "auth/unauthorized-continue-uri",
  INVALID_REDIRECT_URL: "auth/unauthorized-continue-uri",
  INVALID_ERROR_CALLBACK_URL: "auth/unauthorized-continue-uri",
  INVALID_NEW_USER_CALLBACK_URL: "auth/unauthorized-continue-uri",
  TOO_MANY_REQUESTS: "auth/too-many-requests",
  SESSION_EXPIRED: "auth/requires-recent-login",
  SESSION_NOT_FRESH: "auth/requires-recent-login",
  // The recent-sign-in guard (recent-sign-in.server.ts), on every row it protects.
  RECENT_SIGN_IN_REQUIRED: "auth/requires-recent-login",
  // An operator locked the account (account-lock.server.ts): no way in makes a session.
  ACCOUNT_LOCKED: "auth/user-disabled",
  EMAIL_ALREADY_VERIFIED: "auth/email-already-verified",
  EMAIL_MISMATCH: "auth/operation-not-allowed",
  DISPLAY_NAME_TOO_LONG: "auth/display-name-too-long",
  DISPLAY_NAME_INVALID: "auth/invalid-display-name",
  PHOTO_URL_INVALID: "auth/invalid-photo-url",
  ACCOUNT_NOT_LINKED: "auth/account-exists-with-different-credential",
  LINKING_DIFFERENT_EMAILS_NOT_ALLOWED: "auth/account-exists-with-different-credential",
  VALIDATION_ERROR: "auth/invalid-request",
  // The bot check (bot-check.server.ts), on every row that asks for it.
  BOT_CHECK_MISSING: "auth/missing-bot-check",
  BOT_CHECK_FAILED: "auth/captcha-check-failed",
  NO_SCRIPT_LIMIT: "auth/no-script-limit",
  BOT_CHECK_UNAVAILABLE: "auth/service-unavailable",
};

const patterns = authEndpoints.map((row) => ({
  row,
  // `:name` matches any one segment, including the pattern's own `:name` (hooks may see either).
  pattern: new RegExp(`^${row.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:\w+/g, "[^/]+")}$`),
}));
const exact = new Map(authEndpoints.filter((row) => !row.path.includes(":")).map((row) => [row.path, row]));

/** The row of a path under /api/auth (`/sign-in/email`, `/callback/google`), or undefined. */
export function authEndpoint(path: string | undefined): AuthEndpoint | undefined {
  if (!path) return undefined;
  return exact.get(path) ?? patterns.find(({ pattern }) => pattern.test(path))?.row;
}

/** The row a request is held to: its path's, or the variant its body picks (`byRequest`). */
export function authEndpointFor(ctx: { path?: string; body?: unknown }): AuthEndpoint | undefined {
  const row = authEndpoint(ctx.path);
  const body = ctx.body && typeof ctx.body === "object" ? (ctx.body as Record<string, unknown>) : {};
  return row?.byRequest?.when(body) ? { ...row, ...row.byRequest.rules } : row;
}

/** A hook matcher: the request's endpoint has a row (as its body picks it) for which `test` holds. */
export const endpointsWhere =
  (test: (row: AuthEndpoint) => unknown) =>
  (ctx: { path?: string; body?: unknown }): boolean => {
    const row = authEndpointFor(ctx);
    return Boolean(row && test(row));
  };
