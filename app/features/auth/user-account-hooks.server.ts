import type { BetterAuthOptions } from "better-auth";
import { recordAuditEvent } from "./auth-logging.server";
import { cleanDisplayName } from "./display-name";
import { promoteEditors } from "./roles.server";
import { sendSecurityNotice } from "./security-notices.server";
import { methodLabels, type SocialProvider } from "./auth-client";
import { unprovenAccessHooks } from "./unproven-access.server";
import type { AuthDependencies } from "./auth.server";

/** What happens around writes of account and user rows (the session's hooks are sessions.server.ts's). */
export function userAndAccountHooks({ env, database }: AuthDependencies) {
  const unproven = unprovenAccessHooks(database.db, env);
  return {
    account: {
      // A provider joined to an account that already had a way in (linked on the account screen, or by a
      // verified email at sign-in): tell the account.
      create: {
        // A provider joining an unverified account by its address: the proof ends what was set before it.
        before: async (account, endpoint) => void (await unproven.accountCreated(account, endpoint)),
        after: async (account) => {
          if (account.providerId === "credential") return;
          const owner = await database.db.selectFrom("user").select(["email"]).where("id", "=", account.userId).executeTakeFirst();
          const count = await database.db.selectFrom("account").select((eb) => eb.fn.countAll<number>().as("n")).where("userId", "=", account.userId).executeTakeFirst();
          if (!owner || Number(count?.n ?? 0) < 2) return;
          const detail = methodLabels[account.providerId as SocialProvider] ?? account.providerId;
          await sendSecurityNotice(database.db, env, { kind: "sign-in-method-added", to: owner.email, detail });
          await recordAuditEvent(database, { event: "way-in-added", userId: account.userId, detail: { provider: account.providerId } });
        },
      },
    },
    user: {
      // Names typed on our forms are checked by the sign-in rules; a provider's name is made fit to show here.
      create: {
        before: async (user) => ({ data: { ...user, name: cleanDisplayName(user.name ?? "") } }),
        after: async (user) => void (user.emailVerified && (await promoteEditors(database, env.EDITOR_EMAILS))),
      },
      update: {
        before: async (user, endpoint) => {
          const proven = await unproven.userUpdating(user, endpoint);
          const name = typeof user.name === "string" ? { name: cleanDisplayName(user.name) } : {};
          return proven || "name" in name ? { data: { ...user, ...proven, ...name } } : undefined;
        },
        after: async (user) => void (user.emailVerified && (await promoteEditors(database, env.EDITOR_EMAILS))),
      },
    },
  } satisfies BetterAuthOptions["databaseHooks"];
}
