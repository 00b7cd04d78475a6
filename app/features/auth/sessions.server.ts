import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { parseSetCookieHeader, setSessionCookie } from "better-auth/cookies";
import type { AuthContext, BetterAuthOptions, BetterAuthPlugin } from "better-auth";
import type { ServerEnv } from "~/config/env.server";
import { authEndpointFor, endpointsWhere, type AuthEndpoint } from "./auth-endpoints";
import { RECENT_SIGN_IN_SECONDS } from "./recent-sign-in.server";
import { amrOfPath } from "./sign-in-proof.server";

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
      // Better Auth's own fresh-session checks agree with the recent-sign-in guard (recent-sign-in.server.ts).
      freshAge: RECENT_SIGN_IN_SECONDS,
      // How the session was signed in (sign-in-proof.server.ts); written by the server only.
      additionalFields: { amr: { type: "string", required: false, input: false } },
    },
    databaseHooks: {
      session: {
        create: {
          // The endpoint that makes the session checked the proof: its path says which (a passkey sign-in names its own).
          before: async (session: { expiresAt: Date; createdAt?: Date; amr?: string | null }, context: { path?: string } | null) => ({
            data: {
              ...session,
              expiresAt: capped(session.createdAt ?? new Date(), session.expiresAt),
              amr: session.amr ?? amrOfPath(context?.path) ?? null,
            },
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

type InternalAdapter = AuthContext["internalAdapter"];

/** Whether a session signed in at `createdAt` is still within SESSION_ABSOLUTE_DAYS (a date that does not parse is not). */
export const withinAbsoluteLifetime = (createdAt: Date | string, absoluteDays: number) =>
  new Date(createdAt).getTime() + absoluteDays * day * 1000 > Date.now();

/**
 * The absolute lifetime checked on every read (ASVS 7.3.2): a session row older than SESSION_ABSOLUTE_DAYS — one
 * written before the cap existed, or after an operator lowered it — is deleted and treated as absent, whatever
 * its `expiresAt` says. Better Auth has no read hook for sessions; every lookup by token goes through
 * `internalAdapter.findSession`, so that one function is wrapped, once, when the sign-in layer is built.
 */
export function refuseSessionsPastAbsoluteAge(adapter: InternalAdapter, absoluteDays: number): void {
  const findSession = adapter.findSession.bind(adapter);
  adapter.findSession = async (token) => {
    const found = await findSession(token);
    if (!found || withinAbsoluteLifetime(found.session.createdAt, absoluteDays)) return found;
    await adapter.deleteSession(token);
    return null;
  };
}

/**
 * An endpoint that creates a session (its row in the endpoint table says so) ends the session the browser
 * presented (ASVS 7.2.4): after a successful sign-in the session the browser came with is deleted, so a planted or
 * shared cookie never outlives the next sign-in. Registered after the anonymous plugin, whose own hook still needs
 * the guest's session to move the guest's data.
 * An endpoint whose row says it makes no new session, or that has no row, and makes one anyway is refused with
 * that session deleted: a new way to sign in cannot skip these rules by being left out of the table.
 */
export function endPresentedSession(): BetterAuthPlugin {
  return {
    id: "end-presented-session",
    hooks: {
      after: [
        {
          matcher: endpointsWhere((row) => row.session === "creates"),
          handler: createAuthMiddleware(async (ctx) => {
            const fresh = ctx.context.newSession;
            // A sign-in refused after the fact (an unverified email) leaves the browser's session as it was.
            if (!fresh || isAPIError(ctx.context.returned)) return;
            const presented = await presentedToken(ctx);
            if (presented && presented !== fresh.session.token) await ctx.context.internalAdapter.deleteSession(presented);
            await keepFreshSessionCookie(ctx, fresh);
          }),
        },
        {
          matcher: (ctx) => !setsSessions(authEndpointFor(ctx)),
          handler: createAuthMiddleware(async (ctx) => {
            const fresh = ctx.context.newSession;
            // Reading a session slides it and sets its cookie again: the same token is no new session.
            if (!fresh || fresh.session.token === (await presentedToken(ctx))) return;
            await ctx.context.internalAdapter.deleteSession(fresh.session.token);
            ctx.context.responseHeaders?.delete("set-cookie");
            throw new APIError("INTERNAL_SERVER_ERROR", {
              code: "ENDPOINT_NOT_IN_TABLE",
              message: `${ctx.path ?? "an endpoint"} set a session cookie, but its row in auth-endpoints.ts says it does not`,
            });
          }),
        },
      ],
    },
  };
}

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];
type NewSession = NonNullable<HookContext["context"]["newSession"]>;

/**
 * A browser that presents the signed cookie of a session that has ended (signed out elsewhere, expired, locked)
 * and signs in: the anonymous plugin's after-hook looks that session up to move a guest's data, and the lookup
 * expires the session cookie on the same answer, the new one included, so the sign-in "succeeds" signed out. The
 * new session still stands (a two-step sign-in or a refused one has deleted it by now): its cookie is set again.
 */
async function keepFreshSessionCookie(ctx: HookContext, fresh: NewSession) {
  const name = ctx.context.authCookies.sessionToken.name;
  const answered = parseSetCookieHeader(ctx.context.responseHeaders?.get("set-cookie") ?? "").get(name);
  if (!answered || answered.value) return;
  if (!(await ctx.context.internalAdapter.findSession(fresh.session.token))) return;
  await setSessionCookie(ctx, fresh, (ctx.body as { rememberMe?: unknown } | undefined)?.rememberMe === false);
}

const presentedToken = (ctx: HookContext) => ctx.getSignedCookie(ctx.context.authCookies.sessionToken.name, ctx.context.secret);
const setsSessions = (row: AuthEndpoint | undefined) => row?.session === "creates" || row?.session === "renews";
