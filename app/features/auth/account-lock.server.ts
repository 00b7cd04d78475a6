import { APIError } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";

/**
 * An operator's lock (the console's 停用帳號): a locked account gets no session by any way in — password, email
 * link, passkey, provider, two-step, a renewed session — because every one of them creates its session through
 * Better Auth's `session.create`, which this hook refuses with the catalogue's `auth/user-disabled`. Locking also
 * ends every session (and so every app token, app-sessions.server.ts); that is the console's part.
 */
export function accountLock(): BetterAuthPlugin {
  return {
    id: "account-lock",
    schema: { user: { fields: { lockedAt: { type: "string", required: false, input: false, returned: false } } } },
    init: (context) => ({
      options: {
        databaseHooks: {
          session: {
            create: {
              before: async (session) => {
                // Through Better Auth's adapter: this can run inside its transaction (decision 602).
                const user = (await context.internalAdapter.findUserById(session.userId)) as { lockedAt?: string | null } | null;
                if (user?.lockedAt) throw new APIError("FORBIDDEN", { code: "ACCOUNT_LOCKED", message: "This account is locked" });
              },
            },
          },
        },
      },
    }),
  };
}
