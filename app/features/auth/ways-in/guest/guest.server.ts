import { APIError, createAuthEndpoint, sendVerificationEmailFn, sessionMiddleware } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import type { BetterAuthPlugin, User } from "better-auth";
import { anonymous } from "better-auth/plugins/anonymous";
import { z } from "zod";
import { DISPLAY_NAME_MAX_LENGTH } from "~/features/auth/display-name";
import { isUniqueViolation } from "~/services/dependency-errors.server";
import { authPaths } from "~/features/auth/auth-endpoints";
import { moveUserData } from "~/features/auth/user-data-hooks.server";
import { guestWayIn } from "./guest";
import type { WayInServer } from "~/features/auth/way-in-plugins.server";

/**
 * Upgrades the current guest in place (PRODUCT §5): same user id, so every row that points at it stays.
 * The anonymous plugin's own path makes a new user instead, which is why this small endpoint exists.
 * The password policy is checked by the sign-in rules before this runs.
 */
function guestUpgrade(): BetterAuthPlugin {
  return {
    id: "guest-upgrade",
    endpoints: {
      upgradeGuest: createAuthEndpoint(
        authPaths.guestUpgrade,
        {
          method: "POST",
          use: [sessionMiddleware],
          body: z.object({
            email: z.email(),
            password: z.string(),
            name: z.string().trim().min(1).max(DISPLAY_NAME_MAX_LENGTH),
            callbackURL: z.string().optional(),
          }),
        },
        async (ctx) => {
          const { user, session } = ctx.context.session;
          if (!(user as User & { isAnonymous?: boolean | null }).isAnonymous) {
            throw new APIError("BAD_REQUEST", { code: "NOT_ANONYMOUS", message: "Current user is not anonymous" });
          }
          const email = ctx.body.email.toLowerCase();
          if (await ctx.context.internalAdapter.findUserByEmail(email)) {
            throw new APIError("UNPROCESSABLE_ENTITY", { code: "USER_ALREADY_EXISTS", message: "User already exists" });
          }
          const passwordHash = await ctx.context.password.hash(ctx.body.password);
          const now = new Date();
          const upgraded = await ctx.context.adapter
            .transaction(async (trx) => {
              // Only while still a guest: of two upgrades of one guest at once, the second finds no guest to
              // change (on PostgreSQL it waits for the first's row lock, then re-reads the row) and adds nothing.
              const updated = await trx.update<User>({
                model: "user",
                where: [
                  { field: "id", value: user.id },
                  { field: "isAnonymous", value: true },
                ],
                update: { email, name: ctx.body.name, emailVerified: false, isAnonymous: false, updatedAt: now },
              });
              if (!updated) return null;
              await trx.create({
                model: "account",
                data: { userId: user.id, accountId: user.id, providerId: "credential", password: passwordHash, createdAt: now, updatedAt: now },
              });
              return updated;
            })
            .catch((error: unknown) => {
              // Two guests racing for one address: the second meets the email's unique key after the check above.
              if (isUniqueViolation(error)) throw new APIError("UNPROCESSABLE_ENTITY", { code: "USER_ALREADY_EXISTS", message: "User already exists" });
              throw error;
            });
          if (!upgraded) throw new APIError("BAD_REQUEST", { code: "NOT_ANONYMOUS", message: "Current user is not anonymous" });

          // A new session id for the new privilege level; the guest's session token stops working.
          const fresh = await ctx.context.internalAdapter.createSession(user.id);
          await ctx.context.internalAdapter.deleteSession(session.token);
          await setSessionCookie(ctx, { session: fresh, user: upgraded });
          await sendVerificationEmailFn(ctx, upgraded);
          return ctx.json({ user: { id: upgraded.id, email: upgraded.email, name: upgraded.name } });
        },
      ),
    },
  };
}

/** A guest's name until it signs up. */
const guestDisplayName = "訪客";

/** A guest (Better Auth's anonymous plugin; its data moves to the account it links to) and its in-place upgrade. */
export const wayInServer: WayInServer = {
  unit: guestWayIn,
  plugins: ({ database }) => ({
    plugins: [
      anonymous({
        generateName: () => guestDisplayName,
        emailDomainName: "guest.invalid",
        onLinkAccount: async ({ anonymousUser, newUser }) => moveUserData(database.db, anonymousUser.user.id, newUser.user.id),
      }),
      guestUpgrade(),
    ],
  }),
};
