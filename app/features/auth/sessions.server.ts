import { createAuthMiddleware, isAPIError } from "better-auth/api";
import type { BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import type { ServerEnv } from "~/config/env.server";
import type { DatabaseHandle } from "~/db/connection.server";

const day = 24 * 3600;

/**
 * Session cookies and lifetimes (ASVS 7.3): a session ends after SESSION_IDLE_DAYS without use (it slides at most
 * once a day) and SESSION_ABSOLUTE_DAYS after sign-in whatever happens. On an https site without a shared
 * COOKIE_DOMAIN every cookie is `__Host-` (Secure, Path=/, no Domain: no subdomain can set or read it).
 */
export function sessionOptions(env: ServerEnv) {
  const https = env.SITE_URL.startsWith("https:");
  const hostOnly = https && !env.COOKIE_DOMAIN;
  const absoluteMs = env.SESSION_ABSOLUTE_DAYS * day * 1000;
  const capped = (createdAt: Date, expiresAt: Date) => new Date(Math.min(expiresAt.getTime(), createdAt.getTime() + absoluteMs));

  return {
    session: {
      expiresIn: env.SESSION_IDLE_DAYS * day,
      updateAge: Math.min(day, (env.SESSION_IDLE_DAYS * day) / 2),
    },
    databaseHooks: {
      session: {
        create: {
          before: async (session: { expiresAt: Date; createdAt?: Date }) => ({
            data: { ...session, expiresAt: capped(session.createdAt ?? new Date(), session.expiresAt) },
          }),
        },
        update: {
          // Better Auth slides `expiresAt` on use; never past the absolute end. Past it, the update is refused,
          // which ends the session there and then.
          before: async (update: { expiresAt?: Date }, context: unknown) => {
            const current = (context as { context?: { session?: { session?: { createdAt?: Date | string } } } } | null)?.context
              ?.session?.session;
            if (!update.expiresAt || !current?.createdAt) return;
            const expiresAt = capped(new Date(current.createdAt), update.expiresAt);
            if (expiresAt.getTime() <= Date.now()) return false;
            return { data: { ...update, expiresAt } };
          },
        },
      },
    },
    advanced: {
      // With __Host- the prefix is ours, so Better Auth must not add its own __Secure-.
      useSecureCookies: hostOnly ? false : https,
      cookiePrefix: hostOnly ? "__Host-task-hero" : "better-auth",
      defaultCookieAttributes: { sameSite: "lax", httpOnly: true, ...(hostOnly ? { secure: true, path: "/" } : {}) },
      crossSubDomainCookies: env.COOKIE_DOMAIN ? { enabled: true, domain: env.COOKIE_DOMAIN } : undefined,
    },
  } satisfies Partial<BetterAuthOptions>;
}

const signInPaths =
  /^\/(sign-in\/email|sign-up\/email|sign-in\/anonymous|callback\/|oauth2\/callback\/|email-link\/sign-in|passkey\/sign-in\/verify|two-factor\/verify-)/;

/**
 * A sign-in that presents a session ends that session (ASVS 7.2.4): after a successful sign-in the session the
 * browser came with is deleted, so a planted or shared cookie never outlives the next sign-in. Registered after
 * the anonymous plugin, whose own hook still needs the guest's session to move the guest's data.
 */
export function endPresentedSession(): BetterAuthPlugin {
  return {
    id: "end-presented-session",
    hooks: {
      after: [
        {
          matcher: (ctx) => Boolean(ctx.path && signInPaths.test(ctx.path)),
          handler: createAuthMiddleware(async (ctx) => {
            const fresh = ctx.context.newSession;
            // A sign-in refused after the fact (an unverified email) leaves the browser's session as it was.
            if (!fresh || isAPIError(ctx.context.returned)) return;
            const presented = await ctx.getSignedCookie(ctx.context.authCookies.sessionToken.name, ctx.context.secret);
            if (presented && presented !== fresh.session.token) await ctx.context.internalAdapter.deleteSession(presented);
          }),
        },
      ],
    },
  };
}

/**
 * Ends every session of one account, found by email (ASVS 7.4.5, `npm run user:sign-out -- <email>`). Sessions
 * live only in the database and every request looks its session up there, so each device is signed out at its
 * next request. Answers how many sessions ended, or null when no account has that email.
 */
export async function endSessionsOf(database: DatabaseHandle, email: string): Promise<number | null> {
  const user = await database.db.selectFrom("user").select("id").where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
  if (!user) return null;
  const result = await database.db.deleteFrom("session").where("userId", "=", user.id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Ends every session of every account, guests included (`npm run user:sign-out -- --all`); answers how many. */
export async function endAllSessions(database: DatabaseHandle): Promise<number> {
  const result = await database.db.deleteFrom("session").executeTakeFirst();
  return Number(result.numDeletedRows);
}
