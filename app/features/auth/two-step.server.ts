import { createHash } from "node:crypto";
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";
import { twoFactor } from "better-auth/plugins/two-factor";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { twoStepPath } from "./auth-client";
import { authEndpoint, authPaths, endpointsWhere } from "./auth-endpoints";
import { renewSession } from "./recent-sign-in.server";
import { backupCodeStorage, generateBackupCodes, matchingEntry } from "./backup-codes.server";
import { sendSecurityNotice, type NoticeSite } from "./security-notices.server";

const day = 24 * 3600;
/** How long a device the parent ticked 「記住這個裝置」 on skips the code. */
export const trustedDeviceDays = 30;
/** Backup codes handed out at enrolment; each works once. */
export const backupCodeCount = 10;

/**
 * The ways in that prove one factor and so must ask for the code when two-step sign-in is on (their rows'
 * `oneFactor`): a password, an emailed link, a social provider (its callback, with or without the pop-up). A
 * passkey with user verification is two factors in itself: its row has no `oneFactor`.
 */
const provesOneFactor = endpointsWhere((row) => row.oneFactor);
const isCallback = endpointsWhere((row) => row.path === authPaths.callbackId);

/**
 * An app code, once accepted, is refused for longer than any window it could still be valid in (30 s steps, ±1).
 * Backup codes need no such record: the plugin deletes each one as it is used.
 */
const usedCodeLifetimeMs = 3 * 60_000;
const checksAppCode = endpointsWhere((row) => row.appCode);
const checksBackupCode = endpointsWhere((row) => row.path === authPaths.twoFactorVerifyBackupCode);
const turnsTwoStepOff = (path: string | undefined) => authEndpoint(path)?.notice === "two-factor-disabled";

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** Whose code it is: the pending sign-in's (its signed two_factor cookie) or the signed-in user's (enrolment). */
async function codeOwner(ctx: HookContext): Promise<string | undefined> {
  const session = await getSessionFromCtx(ctx).catch(() => null);
  if (session) return session.user.id;
  const pending = await ctx.getSignedCookie(ctx.context.createAuthCookie("two_factor").name, ctx.context.secret);
  if (!pending) return undefined;
  return (await ctx.context.internalAdapter.findVerificationValue(pending))?.value;
}

const bodyOf = (returned: unknown) =>
  (returned && typeof returned === "object" && "_flag" in returned ? (returned as unknown as { body: unknown }).body : returned) as
    | { twoFactorRedirect?: boolean }
    | null
    | undefined;

/**
 * Two-step sign-in (TOTP, ASVS 6.3.3) on Better Auth's two-factor plugin, with what the product adds:
 * - every one-factor way in is challenged, not only the password (the plugin's own list is the password alone):
 *   the pending sign-in holds no session, only a signed `two_factor` cookie valid 10 minutes;
 * - a social callback goes on to our code page (`/login/two-step`); inside the sign-in pop-up the page that
 *   answers the opener carries `error=two_step_required`, and the opener goes to that page itself;
 * - an app code is accepted once per account: the first use claims a hash of (user, code), a second
 *   use inside any window the code could still be valid in is refused like a wrong code (ASVS 6.5.x);
 * - backup codes: ten, each single-use (the plugin deletes a used one); a new set replaces the old one whole;
 *   hand-copyable and stored as salted hashes (backup-codes.server.ts);
 *   a trusted device skips the code 30 days;
 * - signed in, a right app code is a proof of identity for the recent-sign-in guard: the session is renewed
 *   (so an account without a password turns two-step sign-in off with a code);
 * - turning it on (the first code confirmed) and off mails a security notice.
 */
export function twoStepSignIn(db: Kysely<Database>, site: NoticeSite, secret: string): BetterAuthPlugin {
  const plugin = twoFactor({
    issuer: site.PRODUCT_NAME,
    allowPasswordless: true,
    trustDeviceMaxAge: trustedDeviceDays * day,
    // Hand-copyable codes kept as salted hashes (backup-codes.server.ts).
    backupCodeOptions: {
      amount: backupCodeCount,
      customBackupCodesGenerate: () => generateBackupCodes(backupCodeCount),
      storeBackupCodes: backupCodeStorage(secret),
    },
  });
  const [challenge] = plugin.hooks.after;
  if (!challenge) throw new Error("the two-factor plugin's sign-in hook is missing");

  const claimKey = (userId: string, code: string) => createHash("sha256").update(`${userId}:${code.trim()}`).digest("hex");

  return {
    ...plugin,
    hooks: {
      before: [
        {
          // The plugin compares the typed backup code with each stored entry: hand it the entry it matches.
          matcher: checksBackupCode,
          handler: createAuthMiddleware(async (ctx) => {
            const code = (ctx.body as { code?: unknown } | undefined)?.code;
            const userId = typeof code === "string" ? await codeOwner(ctx) : undefined;
            if (!userId || typeof code !== "string") return;
            const row = await ctx.context.adapter.findOne<{ backupCodes: string }>({ model: "twoFactor", where: [{ field: "userId", value: userId }] });
            const entry = row ? await matchingEntry(row.backupCodes, code, secret) : undefined;
            return { context: { body: { ...(ctx.body as object), code: entry ?? "" } } };
          }),
        },
        {
          matcher: checksAppCode,
          handler: createAuthMiddleware(async (ctx) => {
            const code = (ctx.body as { code?: unknown } | undefined)?.code;
            const userId = typeof code === "string" ? await codeOwner(ctx) : undefined;
            if (!userId || typeof code !== "string") return;
            const now = Date.now();
            await db.deleteFrom("used_link_token").where("expires_at", "<", new Date(now).toISOString()).execute();
            const claimed = await db
              .insertInto("used_link_token")
              .values({ token_hash: claimKey(userId, code), expires_at: new Date(now + usedCodeLifetimeMs).toISOString() })
              .onConflict((conflict) => conflict.column("token_hash").doNothing())
              .executeTakeFirst();
            if (!claimed.numInsertedOrUpdatedRows) throw new APIError("UNAUTHORIZED", { code: "CODE_ALREADY_USED", message: "Code already used" });
          }),
        },
      ],
      after: [
        { ...challenge, matcher: provesOneFactor },
        {
          // A wrong code gives its claim back, so a typo never blocks the right code typed next.
          matcher: checksAppCode,
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            if (!(returned instanceof APIError) || returned.body?.code === "CODE_ALREADY_USED") return;
            const code = (ctx.body as { code?: unknown } | undefined)?.code;
            const userId = typeof code === "string" ? await codeOwner(ctx) : undefined;
            if (!userId || typeof code !== "string") return;
            await db.deleteFrom("used_link_token").where("token_hash", "=", claimKey(userId, code)).execute();
          }),
        },
        {
          // `ctx.context.session` is the signed-in session the request came with (none for a pending sign-in), read
          // before the plugin changed anything: its user says whether two-step sign-in was on.
          matcher: (ctx) => checksAppCode(ctx) || turnsTwoStepOff(ctx.path),
          handler: createAuthMiddleware(async (ctx) => {
            const signedIn = ctx.context.session;
            if (!signedIn || isAPIError(ctx.context.returned)) return;
            const wasOn = Boolean((signedIn.user as { twoFactorEnabled?: boolean | null }).twoFactorEnabled);
            if (turnsTwoStepOff(ctx.path)) {
              if (wasOn) await sendSecurityNotice(db, site, { kind: "two-factor-disabled", to: signedIn.user.email });
            } else if (!wasOn) {
              // The enrolment's first code: the plugin turned it on (and renewed the session itself).
              await sendSecurityNotice(db, site, { kind: "two-factor-enabled", to: signedIn.user.email });
            } else {
              await renewSession(ctx, signedIn);
            }
          }),
        },
        {
          matcher: isCallback,
          handler: createAuthMiddleware(async (ctx) => {
            if (!bodyOf(ctx.context.returned)?.twoFactorRedirect) return;
            const location = ctx.context.responseHeaders?.get("location") ?? "/";
            const next = new URL(location, ctx.context.baseURL);
            const redirectTo = next.origin === new URL(ctx.context.baseURL).origin ? `${next.pathname}${next.search}` : "/";
            const target = new URL(twoStepPath, ctx.context.baseURL);
            target.search = new URLSearchParams({ error: "two_step_required", redirectTo }).toString();
            throw ctx.redirect(target.toString());
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
