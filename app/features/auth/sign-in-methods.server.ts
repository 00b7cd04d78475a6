import { APIError, createAuthEndpoint, sessionMiddleware } from "better-auth/api";
import type { BetterAuthPlugin } from "better-auth";
import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { z } from "zod";
import type { DatabaseHandle } from "~/db/connection.server";
import { sendSecurityNotice, type NoticeSite } from "./security-notices.server";
import { removeWayIn } from "./last-way-in.server";
import { methodLabels, type SignInMethod, type SignInMethods, type SocialProvider } from "./auth-client";
import { authPaths } from "./auth-endpoints";

const toIso = (value: Date | string) => new Date(value).toISOString();
const methodOf = (providerId: string) => (providerId === "credential" ? "password" : providerId) as SignInMethod["provider"];

/** The account's linked methods, the offered providers it has not linked, and how many passkeys it has. */
export async function signInMethodsOf({ db, providers }: { db: Kysely<Database>; providers: readonly SocialProvider[] }, userId: string): Promise<SignInMethods> {
  // Straight from the table (Better Auth's adapter call was most of this read's cost on an account page).
  const accounts = await db.selectFrom("account").select(["id", "providerId", "createdAt"]).where("userId", "=", userId).execute();
  const methods = accounts
    .map((account) => ({ id: account.id, provider: methodOf(account.providerId), linkedAt: toIso(account.createdAt) }))
    .sort((a, b) => a.linkedAt.localeCompare(b.linkedAt));
  const linked = new Set(methods.map((method) => method.provider));
  const passkeys = await db.selectFrom("passkey").select((eb) => eb.fn.countAll<number | string>().as("n")).where("user_id", "=", userId).executeTakeFirst();
  return { methods, linkable: providers.filter((provider) => !linked.has(provider)), passkeys: Number(passkeys?.n ?? 0) };
}

/**
 * The account's ways in (ASVS 6.4.x):
 * - `GET /sign-in-methods` → `{ methods, linkable, passkeys }`: each linked method (password or a provider) with its
 *   id and when it was added, the providers this site offers that are not linked yet, and how many passkeys the
 *   account has (ways in too);
 * - `POST /sign-in-methods/remove { id }` removes one, never the last way in (passkeys count: last-way-in.server.ts).
 *   Better Auth's own `/unlink-account` checks the count outside any transaction and knows no passkeys, so it is
 *   switched off (`disabledPaths` in auth.server.ts);
 * - `POST /set-password { newPassword }` gives an account that has none (social sign-in only) its first password.
 * Linking is Better Auth's `/link-social` (the development provider too). Every change mails a
 * security notice; all three changes sit behind the recent-sign-in guard.
 */
export function signInMethods(database: DatabaseHandle, site: NoticeSite, providers: () => SocialProvider[]): BetterAuthPlugin {
  const { db } = database;
  return {
    id: "sign-in-methods",
    endpoints: {
      listSignInMethods: createAuthEndpoint(authPaths.signInMethods, { method: "GET", use: [sessionMiddleware] }, async (ctx) =>
        ctx.json(await signInMethodsOf({ db, providers: providers() }, ctx.context.session.user.id)),
      ),
      removeSignInMethod: createAuthEndpoint(
        authPaths.signInMethodsRemove,
        { method: "POST", use: [sessionMiddleware], body: z.object({ id: z.string().min(1).max(200) }) },
        async (ctx) => {
          const { user } = ctx.context.session;
          await removeWayIn(database, user.id, async (trx) => {
            const target = await trx.selectFrom("account").select(["id", "providerId"]).where("userId", "=", user.id).where("id", "=", ctx.body.id).executeTakeFirst();
            if (!target) throw new APIError("BAD_REQUEST", { code: "ACCOUNT_NOT_FOUND", message: "No such sign-in method" });
            await trx.deleteFrom("account").where("id", "=", target.id).execute();
            const detail = methodLabels[methodOf(target.providerId)] ?? target.providerId;
            await sendSecurityNotice(trx, site, { kind: "sign-in-method-removed", to: user.email, detail });
          });
          return ctx.json({ status: true });
        },
      ),
      setPassword: createAuthEndpoint(
        authPaths.setPassword,
        { method: "POST", use: [sessionMiddleware], body: z.object({ newPassword: z.string().min(1).max(1024) }) },
        async (ctx) => {
          const { user } = ctx.context.session;
          if ((user as { isAnonymous?: boolean | null }).isAnonymous) {
            throw new APIError("BAD_REQUEST", { code: "GUEST_HAS_NO_PASSWORD", message: "Guests sign up instead" });
          }
          const existing = await ctx.context.internalAdapter.findCredentialAccount(user.id);
          if (existing?.password) throw new APIError("BAD_REQUEST", { code: "PASSWORD_ALREADY_SET", message: "Password already set" });
          const hash = await ctx.context.password.hash(ctx.body.newPassword);
          await ctx.context.internalAdapter.linkAccount({ userId: user.id, providerId: "credential", accountId: user.id, password: hash });
          await sendSecurityNotice(db, site, { kind: "password-set", to: user.email });
          return ctx.json({ status: true });
        },
      ),
    },
  };
}
