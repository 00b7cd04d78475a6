import { createAuthMiddleware } from "better-auth/api";
import type { BetterAuthPlugin, GenericEndpointContext } from "better-auth";
import { endpointsWhere } from "./auth-endpoints";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { sendSecurityNotice, type NoticeSite } from "./security-notices.server";

/**
 * Accounts that cannot be claimed in advance (pre-account takeover, "classic federated merge"): anyone may sign up
 * with a parent's address and a password of their own and never open the verification mail. When the address's
 * real owner later proves it on that unverified account — an emailed sign-in link, or a social provider that
 * vouches for the address — nothing set before the proof stays: every password, other provider link, passkey,
 * phone number (and its verification), authenticator app and backup code is removed, every session (site and app sign-ins alike) ends, the browsers the
 * account knew are forgotten, and the owner is told by mail. The account's data (children's tasks, wishes) stays:
 * the unverified owner may have been the parent herself, whose mail was lost.
 * The sign-up's own verification link is not such a proof: it confirms the sign-up it was sent for.
 */

/** The provider account a social sign-in is joining to an unverified user, kept through the proof that follows. */
interface PendingJoin {
  userId: string;
  providerId: string;
  accountId: string;
}

// Per request (the endpoint context both hooks are handed): Better Auth links the provider first and marks the
// address verified right after, in the same handler.
const pendingJoins = new WeakMap<object, PendingJoin>();

type AuthContext = GenericEndpointContext["context"];

/** Removes every credential and session of an unverified user, except the provider account that is proving it. */
export async function endUnprovenAccess(
  auth: AuthContext,
  db: Kysely<Database>,
  site: NoticeSite,
  user: { id: string; email: string },
  keep?: Omit<PendingJoin, "userId">,
): Promise<void> {
  for (const account of await auth.internalAdapter.findAccounts(user.id)) {
    if (keep && account.providerId === keep.providerId && account.accountId === keep.accountId) continue;
    await auth.internalAdapter.deleteAccount(account.id);
  }
  // App sign-ins are rows of the session table (app-sessions.server.ts): they end here too.
  await auth.internalAdapter.deleteUserSessions(user.id);
  await auth.adapter.deleteMany({ model: "twoFactor", where: [{ field: "userId", value: user.id }] });
  await db.deleteFrom("passkey").where("user_id", "=", user.id).execute();
  // A number attached before the proof is someone's way in by text (ways-in/phone/phone.server.ts): it goes too.
  await db.updateTable("user").set({ phoneNumber: null, phoneNumberVerified: null }).where("id", "=", user.id).execute();
  await db.deleteFrom("known_device").where("user_id", "=", user.id).execute();
  await sendSecurityNotice(db, site, { kind: "unproven-access-ended", to: user.email });
}

/**
 * Database hooks for the social way in (Better Auth's own linking, link-account.ts): `account.create.before` notes
 * a provider account joining an unverified user; `user.update.before` with `emailVerified: true` in the same
 * request is the proof, and ends everything else before the flag is set (and turns the removed two-step off).
 */
export function unprovenAccessHooks(db: Kysely<Database>, site: NoticeSite) {
  return {
    async accountCreated(account: { userId: string; providerId: string; accountId: string }, endpoint: GenericEndpointContext | null) {
      if (!endpoint || account.providerId === "credential") return;
      const user = await endpoint.context.internalAdapter.findUserById(account.userId);
      if (user && !user.emailVerified) pendingJoins.set(endpoint, { userId: account.userId, providerId: account.providerId, accountId: account.accountId });
    },
    async userUpdating(data: { emailVerified?: unknown }, endpoint: GenericEndpointContext | null): Promise<{ twoFactorEnabled: false } | undefined> {
      if (!endpoint || data.emailVerified !== true) return undefined;
      const join = pendingJoins.get(endpoint);
      if (!join) return undefined;
      pendingJoins.delete(endpoint);
      const user = await endpoint.context.internalAdapter.findUserById(join.userId);
      if (!user || user.emailVerified) return undefined;
      await endUnprovenAccess(endpoint.context, db, site, user, join);
      return { twoFactorEnabled: false };
    },
  };
}

/**
 * After a social callback the session's user is the one Better Auth read before the proof: if the proof just
 * removed a two-step sign-in someone else set up, the owner must not be asked for that code. Registered before the
 * two-step plugin, whose challenge reads this user.
 */
export function unprovenAccess(): BetterAuthPlugin {
  return {
    id: "unproven-access",
    hooks: {
      after: [
        {
          matcher: endpointsWhere((row) => row.oneFactor),
          handler: createAuthMiddleware(async (ctx) => {
            const signedIn = ctx.context.newSession;
            if (!(signedIn?.user as { twoFactorEnabled?: boolean | null } | undefined)?.twoFactorEnabled) return;
            const fresh = (await ctx.context.internalAdapter.findUserById(signedIn?.user.id ?? "")) as { twoFactorEnabled?: boolean | null } | null;
            if (signedIn && fresh && !fresh.twoFactorEnabled) ctx.context.setNewSession({ ...signedIn, user: { ...signedIn.user, twoFactorEnabled: false } });
          }),
        },
      ],
    },
  };
}
