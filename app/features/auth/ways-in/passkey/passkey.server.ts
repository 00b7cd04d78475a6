import { randomBytes, randomUUID } from "node:crypto";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { APIError, createAuthEndpoint, sessionMiddleware } from "better-auth/api";
import { setSessionCookie } from "better-auth/cookies";
import type { BetterAuthPlugin } from "better-auth";
import type { Kysely } from "kysely";
import * as z from "zod";
import type { DatabaseHandle } from "~/db/connection.server";
import type { Database } from "~/db/schema";
import { sendSecurityNotice, type NoticeSite } from "~/features/auth/security-notices.server";
import { removeWayIn } from "~/features/auth/last-way-in.server";
import { authPaths } from "~/features/auth/auth-endpoints";
import { passkeyAmr } from "~/features/auth/sign-in-proof.server";
import { passkeyWayIn } from "./passkey";
import type { WayInServer } from "~/features/auth/way-in-plugins.server";
import { accountName } from "~/features/auth/phone-number";

// The unit's table (migration 0135), merged into the database's type (app/db/schema.ts).
declare module "~/db/schema" {
  interface Database {
    passkey: PasskeyTable;
  }

  /** One registered passkey: the WebAuthn credential (id and public key base64url) and the name its owner gave it. */
  interface PasskeyTable {
    id: string;
    user_id: string;
    name: string;
    credential_id: string;
    public_key: string;
    counter: number | string;
    transports: string;
    backed_up: number;
    created_at: string;
    last_used_at: string | null;
  }
}

/** A name the owner gives a passkey (「小明的 iPhone」); the default says what kind it is. */
export const PASSKEY_NAME_MAX_LENGTH = 50;
const challengeLifetimeMs = 5 * 60_000;
const challengeCookie = "passkey_challenge";

const credentialSchema = z.looseObject({ id: z.string().min(1).max(1400), rawId: z.string(), type: z.literal("public-key"), response: z.looseObject({}) });
const nameSchema = z.string().trim().min(1).max(PASSKEY_NAME_MAX_LENGTH);
const idSchema = z.string().min(1).max(36);

const invalidPasskey = () => new APIError("BAD_REQUEST", { code: "INVALID_PASSKEY", message: "Passkey not accepted" });

/** The signed-in account's own passkey; another account's is not found either. */
async function ownPasskey(executor: Kysely<Database>, userId: string, id: string) {
  const found = await executor.selectFrom("passkey").selectAll().where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();
  if (!found) throw new APIError("NOT_FOUND", { code: "PASSKEY_NOT_FOUND", message: "No such passkey" });
  return found;
}

/**
 * Passkeys (WebAuthn) written on @simplewebauthn/server (decision 107): register, list, rename and remove for the
 * signed-in account; sign in without a password, including from the browser's autofill (conditional mediation).
 * The relying party is the site's host name and its origin the site's; user verification is required, so a
 * passkey is two factors in itself and two-step sign-in does not ask for a code after it. Challenges live in the
 * verification table (5 minutes, consumed once): per user when registering, per browser (a signed cookie naming
 * a random id) when signing in. Only the public key is stored. Adding and removing one is behind the recent-sign-in
 * guard (their rows in auth-endpoints.ts), mails a security notice in the same transaction, and the last passkey of
 * an account with no other way in stays (last-way-in.server.ts).
 */
/** A passkey as `GET /passkey/list` answers it. */
interface PasskeyListItem {
  id: string;
  /** The credential's id (base64url), which the browser's password manager knows it by (the Signal API). */
  credentialId: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** Synced by its provider (iCloud Keychain, Google Password Manager) rather than kept on one device. */
  backedUp: boolean;
}

function passkeys(database: DatabaseHandle, site: NoticeSite): BetterAuthPlugin {
  const { db } = database;
  const { hostname: rpID, origin } = new URL(site.SITE_URL);

  return {
    id: "passkeys",
    endpoints: {
      passkeyRegisterOptions: createAuthEndpoint(authPaths.passkeyRegisterOptions, { method: "POST", use: [sessionMiddleware] }, async (ctx) => {
        const { user } = ctx.context.session;
        if (user.isAnonymous) throw new APIError("FORBIDDEN", { code: "OPERATION_NOT_ALLOWED", message: "Guests cannot add passkeys" });
        const existing = await db.selectFrom("passkey").select(["credential_id", "transports"]).where("user_id", "=", user.id).execute();
        const options = await generateRegistrationOptions({
          rpName: site.PRODUCT_NAME,
          rpID,
          // The phone's passkey list shows these: a phone account's placeholder address never (its number instead).
          userName: accountName(user.email, (user as { phoneNumber?: string | null }).phoneNumber),
          userDisplayName: user.name || accountName(user.email, (user as { phoneNumber?: string | null }).phoneNumber),
          userID: new TextEncoder().encode(user.id),
          attestationType: "none",
          excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row.transports) })),
          authenticatorSelection: { residentKey: "required", userVerification: "required" },
        });
        await ctx.context.internalAdapter.deleteVerificationByIdentifier(`passkey-register:${user.id}`);
        await ctx.context.internalAdapter.createVerificationValue({
          identifier: `passkey-register:${user.id}`,
          value: options.challenge,
          expiresAt: new Date(Date.now() + challengeLifetimeMs),
        });
        return ctx.json(options);
      }),

      passkeyRegisterVerify: createAuthEndpoint(
        authPaths.passkeyRegisterVerify,
        { method: "POST", use: [sessionMiddleware], body: z.object({ response: credentialSchema, name: nameSchema.optional() }) },
        async (ctx) => {
          const { user } = ctx.context.session;
          const challenge = await ctx.context.internalAdapter.consumeVerificationValue(`passkey-register:${user.id}`);
          if (!challenge) throw invalidPasskey();
          const result = await verifyRegistrationResponse({
            response: ctx.body.response as unknown as RegistrationResponseJSON,
            expectedChallenge: challenge.value,
            expectedOrigin: origin,
            expectedRPID: rpID,
            requireUserVerification: true,
          }).catch(() => null);
          if (!result?.verified) throw invalidPasskey();
          const { credential, credentialDeviceType, credentialBackedUp } = result.registrationInfo;
          const id = randomUUID();
          const name = ctx.body.name ?? (credentialDeviceType === "multiDevice" ? "同步的密碼金鑰" : "這個裝置上的密碼金鑰");
          const added = await db.transaction().execute(async (trx) => {
            const inserted = await trx
              .insertInto("passkey")
              .values({
                id,
                user_id: user.id,
                name,
                credential_id: credential.id,
                public_key: Buffer.from(credential.publicKey).toString("base64url"),
                counter: credential.counter,
                transports: (credential.transports ?? []).join(","),
                backed_up: credentialBackedUp ? 1 : 0,
                created_at: new Date().toISOString(),
                last_used_at: null,
              })
              .onConflict((conflict) => conflict.column("credential_id").doNothing())
              .executeTakeFirst();
            if (!inserted.numInsertedOrUpdatedRows) return false;
            await sendSecurityNotice(trx, site, { kind: "passkey-added", to: user.email, detail: name });
            return true;
          });
          if (!added) throw invalidPasskey();
          return ctx.json({ id, name });
        },
      ),

      passkeyList: createAuthEndpoint(authPaths.passkeyList, { method: "GET", use: [sessionMiddleware] }, async (ctx) => {
        const rows = await db.selectFrom("passkey").selectAll().where("user_id", "=", ctx.context.session.user.id).orderBy("created_at").execute();
        const list: PasskeyListItem[] = rows.map((row) => ({
          id: row.id,
          credentialId: row.credential_id,
          name: row.name,
          createdAt: row.created_at,
          lastUsedAt: row.last_used_at,
          backedUp: Boolean(row.backed_up),
        }));
        return ctx.json({ passkeys: list });
      }),

      passkeyRename: createAuthEndpoint(
        authPaths.passkeyRename,
        { method: "POST", use: [sessionMiddleware], body: z.object({ id: idSchema, name: nameSchema }) },
        async (ctx) => {
          const found = await ownPasskey(db, ctx.context.session.user.id, ctx.body.id);
          await db.updateTable("passkey").set({ name: ctx.body.name }).where("id", "=", found.id).execute();
          return ctx.json({ status: true });
        },
      ),

      passkeyDelete: createAuthEndpoint(
        authPaths.passkeyDelete,
        { method: "POST", use: [sessionMiddleware], body: z.object({ id: idSchema }) },
        async (ctx) => {
          const { user } = ctx.context.session;
          const found = await removeWayIn(database, user.id, async (trx) => {
            const target = await ownPasskey(trx, user.id, ctx.body.id);
            await trx.deleteFrom("passkey").where("id", "=", target.id).execute();
            await sendSecurityNotice(trx, site, { kind: "passkey-removed", to: user.email, detail: target.name });
            return target;
          });
          return ctx.json({ status: true, name: found.name });
        },
      ),

      passkeySignInOptions: createAuthEndpoint(authPaths.passkeySignInOptions, { method: "POST" }, async (ctx) => {
        const options = await generateAuthenticationOptions({ rpID, userVerification: "required" });
        const id = randomBytes(18).toString("base64url");
        await ctx.context.internalAdapter.createVerificationValue({
          identifier: `passkey-sign-in:${id}`,
          value: options.challenge,
          expiresAt: new Date(Date.now() + challengeLifetimeMs),
        });
        const cookie = ctx.context.createAuthCookie(challengeCookie, { maxAge: challengeLifetimeMs / 1000 });
        await ctx.setSignedCookie(cookie.name, id, ctx.context.secret, cookie.attributes);
        return ctx.json(options);
      }),

      passkeySignIn: createAuthEndpoint(
        authPaths.passkeySignInVerify,
        { method: "POST", body: z.object({ response: credentialSchema }) },
        async (ctx) => {
          const cookie = ctx.context.createAuthCookie(challengeCookie);
          const id = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
          const challenge = id ? await ctx.context.internalAdapter.consumeVerificationValue(`passkey-sign-in:${id}`) : null;
          const row = await db.selectFrom("passkey").selectAll().where("credential_id", "=", ctx.body.response.id).executeTakeFirst();
          if (!challenge || !row) throw invalidPasskey();
          const result = await verifyAuthenticationResponse({
            response: ctx.body.response as unknown as AuthenticationResponseJSON,
            expectedChallenge: challenge.value,
            expectedOrigin: origin,
            expectedRPID: rpID,
            requireUserVerification: true,
            credential: {
              id: row.credential_id,
              publicKey: new Uint8Array(Buffer.from(row.public_key, "base64url")),
              counter: Number(row.counter),
              transports: transportsOf(row.transports),
            },
          }).catch(() => null);
          if (!result?.verified) throw invalidPasskey();
          await db
            .updateTable("passkey")
            .set({ counter: result.authenticationInfo.newCounter, last_used_at: new Date().toISOString() })
            .where("id", "=", row.id)
            .execute();
          const user = await ctx.context.internalAdapter.findUserById(row.user_id);
          if (!user) throw invalidPasskey();
          const session = await ctx.context.internalAdapter.createSession(user.id, false, { amr: passkeyAmr(Boolean(row.backed_up)) });
          await setSessionCookie(ctx, { session, user });
          ctx.setCookie(cookie.name, "", { ...cookie.attributes, maxAge: 0 });
          return ctx.json({ status: true });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}

const transportsOf = (stored: string) => (stored ? (stored.split(",") as AuthenticatorTransport[]) : undefined);

export const wayInServer: WayInServer = {
  unit: passkeyWayIn,
  plugins: ({ database, env }) => ({ plugins: [passkeys(database, env)] }),
};
