import type { BetterAuthOptions } from "better-auth";
import { enqueueMail } from "~/features/mail/outbox.server";
import { accountDeletedEmail } from "~/features/mail/mail-templates.server";
import { deleteUserData, deletionSummary } from "./user-data-hooks.server";
import { mailBrand } from "./email-password-options.server";
import type { AuthDependencies } from "./auth.server";

/** What a deletion took beyond the usual list, from `beforeDelete` to the mail `afterDelete` sends (one process). */
const deletedExtras = new Map<string, string[]>();

/** The user row: its server-only fields, the email change, and deleting the account with everything it owns. */
export function userOptions({ env, database }: AuthDependencies) {
  return {
    // A new address is used only once the link mailed to it is opened (recent-sign-in guarded).
    changeEmail: { enabled: true },
    additionalFields: {
      // Set only on the server (EDITOR_EMAILS, `npm run user:role`); never from a sign-up or profile body.
      role: { type: "string", required: false, defaultValue: "user", input: false },
      // The guest's column, as its plugin (anonymous) declares it: the way-in plugins come as plain plugins
      // (way-in-plugins.server.ts), so the session's type learns the field here.
      isAnonymous: { type: "boolean", required: false, defaultValue: false, input: false },
    },
    deleteUser: {
      enabled: true,
      beforeDelete: async (user) => {
        // What goes beyond the usual list, for the mail after (the family, its children, the phone number, passkeys).
        deletedExtras.set(user.id, await deletionSummary(database.db, user.id, "went"));
        await deleteUserData(database.db, user.id);
      },
      // The confirmation the stores ask for; guests have no address to tell (`…@guest.invalid`).
      afterDelete: async (user) => {
        const went = deletedExtras.get(user.id) ?? [];
        deletedExtras.delete(user.id);
        if ((user as { isAnonymous?: boolean | null }).isAnonymous || user.email.endsWith(".invalid")) return;
        await enqueueMail(database.db, accountDeletedEmail(mailBrand(env), user.email, `${env.SITE_URL}/account-deletion`, went));
      },
    },
  } satisfies BetterAuthOptions["user"];
}
