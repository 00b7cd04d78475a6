import { APIError } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";
import type { DatabaseHandle } from "~/db/connection.server";
import { straightReader } from "~/db/straight-read.server";

/**
 * An operator's lock (the console's 停用帳號): a locked account gets no session by any way in — password, email
 * link, passkey, provider, two-step, a renewed session — because every one of them creates its session through
 * Better Auth's `session.create`, which this hook refuses with the catalogue's `auth/user-disabled`. Locking also
 * ends every session (and so every app token, app-sessions.server.ts); that is the console's part.
 */
export function accountLock(database: DatabaseHandle): BetterAuthPlugin {
  // The lock alone, compiled once (the id is its one parameter): read straight on SQLite, it takes microseconds
  // where Better Auth's read of the whole user took half a millisecond of a sign-in (docs/performance.md, *Eighteenth
  // round*).
  const lockOf = database.db.selectFrom("user").select("lockedAt").where("id", "=", "").compile();
  const readStraight = straightReader(database);
  return {
    id: "account-lock",
    schema: { user: { fields: { lockedAt: { type: "string", required: false, input: false, returned: false } } } },
    init: (context) => ({
      options: {
        databaseHooks: {
          session: {
            create: {
              before: async (session) => {
                // Where it is not read straight (a transaction is open, this sign-up's or another request's; on
                // PostgreSQL; no row; a failed read), through Better Auth's adapter: inside this request's
                // transaction, or after another's (decision 602).
                const [straight] = readStraight<{ lockedAt: string | null }>({ ...lockOf, parameters: [session.userId] }) ?? [];
                const user = straight ?? ((await context.internalAdapter.findUserById(session.userId)) as { lockedAt?: string | null } | null);
                if (user?.lockedAt) throw new APIError("FORBIDDEN", { code: "ACCOUNT_LOCKED", message: "This account is locked" });
              },
            },
          },
        },
      },
    }),
  };
}
