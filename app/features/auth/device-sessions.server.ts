import { createAuthEndpoint, sensitiveSessionMiddleware, sessionMiddleware } from "better-auth/api";
import { deleteSessionCookie } from "better-auth/cookies";
import type { AuthContext, BetterAuthPlugin } from "better-auth";
import { z } from "zod";
import { deviceLabel } from "./device-name";
import { networkPlace } from "./network-place.server";
import type { DeviceSession } from "./auth-client";
import { authPaths } from "./auth-endpoints";

const toIso = (value: Date | string) => new Date(value).toISOString();

/** The signed-in user's sessions as devices: the current one first, then the most recently used. */
export async function devicesOf(adapter: AuthContext["internalAdapter"], { user, session }: { user: { id: string }; session: { id: string } }): Promise<DeviceSession[]> {
  return (await adapter.listSessions(user.id, { onlyActiveSessions: true }))
    .map((row) => ({
      id: row.id,
      device: deviceLabel(row.userAgent),
      place: networkPlace(row.ipAddress),
      createdAt: toIso(row.createdAt),
      lastActiveAt: toIso(row.updatedAt),
      current: row.id === session.id,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt.localeCompare(a.lastActiveAt));
}

/**
 * The user's own sessions, without their tokens (ASVS 7.5.2). Better Auth's `/list-sessions` answers with each
 * session's token (the HTTP layer strips it, but a server-side caller would see it) and wants a session younger
 * than a day; `/revoke-session` takes a token. These two work by session id, which Better Auth never accepts
 * in place of a token, and only ever on the sessions of the user who asks:
 * - `GET /devices` → `{ devices: DeviceSession[] }`, the current one first, then the most recently used;
 * - `POST /devices/end { id }` → `{ status: true }`; ends that session if it is the caller's (an id of someone
 *   else's session, or of one already ended, changes nothing). Ending the current one also clears its cookie.
 * Ending every other session is Better Auth's own `POST /revoke-other-sessions`.
 */
export function deviceSessions(): BetterAuthPlugin {
  return {
    id: "device-sessions",
    endpoints: {
      listDevices: createAuthEndpoint(authPaths.devices, { method: "GET", use: [sessionMiddleware] }, async (ctx) =>
        ctx.json({ devices: await devicesOf(ctx.context.internalAdapter, ctx.context.session) }),
      ),
      endDevice: createAuthEndpoint(
        authPaths.devicesEnd,
        { method: "POST", use: [sensitiveSessionMiddleware], body: z.object({ id: z.string().min(1).max(200) }) },
        async (ctx) => {
          const { user, session } = ctx.context.session;
          const target = (await ctx.context.internalAdapter.listSessions(user.id)).find((row) => row.id === ctx.body.id);
          if (target) {
            await ctx.context.internalAdapter.deleteSession(target.token);
            if (target.id === session.id) deleteSessionCookie(ctx);
          }
          return ctx.json({ status: true });
        },
      ),
    },
  };
}
