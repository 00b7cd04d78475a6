import { APIError, createAuthEndpoint, createAuthMiddleware, getSessionFromCtx, sessionMiddleware } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import type { BetterAuthPlugin, Session, User } from "better-auth";
import { z } from "zod";
import { authEndpointFor, endpointsWhere } from "./auth-endpoints";
import { authPaths } from "./auth-endpoints";

/**
 * Recent sign-in (the original's `requires-recent-login`, ASVS 6.2.2 / 7.5.1): a sensitive change more than
 * RECENT_SIGN_IN_SECONDS after the session began is refused with RECENT_SIGN_IN_REQUIRED
 * (catalogue `auth/requires-recent-login`) until the user confirms who they are.
 *
 * One guard, one confirm-identity step:
 * - the guard is a `before` hook on every endpoint whose row in the endpoint table says `recentSignIn`
 *   (auth-endpoints.ts): a new sensitive endpoint is one more marked row;
 * - `POST /confirm-identity { password }` checks the password and calls `renewSession`. Other proofs verify in
 *   their own endpoint and then call `renewSession(ctx)` the same way (a two-step code: two-step.server.ts; a
 *   passkey signs in anew, which is a new session too).
 *
 * "Recent" is measured from the session's `createdAt`, which is also what Better Auth's own fresh-session checks
 * read (`session.freshAge` is set to the same age): confirming renews the session (a new token, `createdAt` now,
 * the old token ended), so both agree without a column of our own, and a confirmed session is a new one (ASVS 7.2.4).
 */
export const RECENT_SIGN_IN_SECONDS = 10 * 60;

type EndpointContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/**
 * The request carries the account's password in the row's `passwordIn` field (the password change's current
 * password, a deletion or a two-step form with the password). The endpoint checks it before it changes anything,
 * so it is the confirmation itself; an account without a password gets nothing from a field it cannot fill.
 */
async function carriesOwnPassword(ctx: EndpointContext, userId: string): Promise<boolean> {
  const rule = authEndpointFor(ctx)?.recentSignIn;
  if (typeof rule !== "object") return false;
  const typed = (ctx.body as Record<string, unknown> | undefined)?.[rule.passwordIn];
  if (typeof typed !== "string" || !typed) return false;
  return Boolean((await ctx.context.internalAdapter.findCredentialAccount(userId))?.password);
}

export function isRecentSignIn(session: Pick<Session, "createdAt">, now = Date.now()): boolean {
  return now - new Date(session.createdAt).getTime() < RECENT_SIGN_IN_SECONDS * 1000;
}

/** Throws the catalogue's `auth/requires-recent-login` unless the session began within RECENT_SIGN_IN_SECONDS. */
export function requireRecentSignIn(session: Pick<Session, "createdAt">): void {
  if (!isRecentSignIn(session)) {
    throw new APIError("FORBIDDEN", { code: "RECENT_SIGN_IN_REQUIRED", message: "Confirm your identity first" });
  }
}

/**
 * After a proof of identity: replaces the request's session with a new one for the same user (a fresh
 * `createdAt` and token; the old token stops working) and sets its cookie. Call it from an endpoint that has
 * just verified a password, a passkey or a code for the signed-in user.
 */
export async function renewSession(ctx: EndpointContext, current: { session: Session; user: User }): Promise<Session> {
  const fresh = await ctx.context.internalAdapter.createSession(current.user.id);
  await ctx.context.internalAdapter.deleteSession(current.session.token);
  await setSessionCookie(ctx, { session: fresh, user: current.user });
  return fresh;
}

/** The guard and `POST /confirm-identity { password }` → `{ status: true }` with a renewed session cookie. */
export function recentSignIn(): BetterAuthPlugin {
  return {
    id: "recent-sign-in",
    hooks: {
      before: [
        {
          matcher: endpointsWhere((row) => row.recentSignIn),
          handler: createAuthMiddleware(async (ctx) => {
            const current = await getSessionFromCtx(ctx);
            // No session: the endpoint itself answers 401.
            if (!current || isRecentSignIn(current.session) || (await carriesOwnPassword(ctx, current.user.id))) return;
            requireRecentSignIn(current.session);
          }),
        },
      ],
    },
    endpoints: {
      confirmIdentity: createAuthEndpoint(
        authPaths.confirmIdentity,
        { method: "POST", use: [sessionMiddleware], body: z.object({ password: z.string().min(1).max(1024) }) },
        async (ctx) => {
          const current = ctx.context.session;
          const credential = await ctx.context.internalAdapter.findCredentialAccount(current.user.id);
          if (!credential?.password) throw new APIError("BAD_REQUEST", { code: "CREDENTIAL_ACCOUNT_NOT_FOUND", message: "No password" });
          const valid = await ctx.context.password.verify({ hash: credential.password, password: ctx.body.password });
          if (!valid) throw new APIError("UNAUTHORIZED", { code: "INVALID_PASSWORD", message: "Invalid password" });
          await renewSession(ctx, current);
          return ctx.json({ status: true });
        },
      ),
    },
  };
}
